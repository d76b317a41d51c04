package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MariaDbKeyLayoutTest {
    private static final MariaDbDatabase MARIADB = new MariaDbDatabase();
    private static final String BIN = " " + MariaDbKeyLayout.TEXT_KEY_CHARSET;

    private static ColumnType text(int length) {
        return new ColumnType("string", null, Map.of("__debezium.source.column.length", Integer.toString(length)));
    }

    private static RowSchema key(Column... columns) {
        return new RowSchema(List.of(columns), List.of(columns).stream().map(Column::name).toList());
    }

    private static Map<String, String> layout(RowSchema s) {
        return MARIADB.keyColumnTypes("t", s);
    }

    @Test
    void anIntAndUnboundedTextKeyFitsWholeWithABinaryCollation() {
        assertThat(layout(key(new Column("tenant", ColumnType.of("int32"), false), new Column("code", ColumnType.of("string"), false))))
                .containsExactly(Map.entry("tenant", "INT"), Map.entry("code", "VARCHAR(767)" + BIN));
    }

    @Test
    void postgresTextWithItsMaximalLengthCountsAsUnbounded() {
        assertThat(layout(key(new Column("id", ColumnType.of("int64"), false), new Column("code", text(Integer.MAX_VALUE), false))))
                .containsEntry("code", "VARCHAR(766)" + BIN);
    }

    @Test
    void aSourceLengthSizesTheColumnAndLeavesTheRestToUnboundedOnes() {
        assertThat(layout(key(new Column("a", text(40), false), new Column("b", ColumnType.of("string"), false),
                new Column("c", ColumnType.of("bytes"), false))))
                .containsExactly(Map.entry("a", "VARCHAR(40)" + BIN), Map.entry("b", "VARCHAR(364)" + BIN), Map.entry("c", "VARBINARY(1456)"));
    }

    @Test
    void fixedTypesCostTheirStorage() {
        assertThat(MariaDbKeyLayout.fixedBytes("DECIMAL(18,4)")).as("14 integer digits: 4 + 3 bytes, 4 fraction digits: 2").isEqualTo(9);
        assertThat(MariaDbKeyLayout.fixedBytes("DATETIME(6)")).isEqualTo(8);
        assertThat(MariaDbKeyLayout.fixedBytes("BIGINT")).isEqualTo(8);
        assertThat(MariaDbKeyLayout.fixedBytes("UUID")).isEqualTo(16);
    }

    @Test
    void declaredLengthsBeyondTheLimitAreRefusedNamingTableAndColumn() {
        assertThatThrownBy(() -> layout(key(new Column("tenant", ColumnType.of("int32"), false), new Column("code", text(1000), false))))
                .isInstanceOf(SinkException.class)
                .hasMessageStartingWith("table t column code: ")
                .hasMessageContaining("VARCHAR(1000)")
                .hasMessageContaining("3072")
                .satisfies(e -> assertThat(((SinkException) e).failure()).isInstanceOf(Failure.Fault.class));
        assertThatThrownBy(() -> layout(key(new Column("a", text(700), false), new Column("b", text(100), false))))
                .hasMessageStartingWith("table t column b: ");
    }

    @Test
    void anUnboundedTextKeyLeftTooLittleRoomIsRefused() {
        assertThatThrownBy(() -> layout(key(new Column("a", text(760), false), new Column("b", ColumnType.of("string"), false))))
                .isInstanceOf(SinkException.class)
                .hasMessageStartingWith("table t column b: ")
                .hasMessageContaining("unbounded text key");
    }
}
