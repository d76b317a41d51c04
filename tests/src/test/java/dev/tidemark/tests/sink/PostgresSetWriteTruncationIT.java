package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.SinkException;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.PartitionOffset;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 item 4: PostgreSQL's set-based writes bind text arrays and cast them to the target column's type; an
 * explicit cast to {@code varchar(3)} or {@code char(3)} cuts a longer value silently (a row-by-row insert fails).
 * Cut keys would merge distinct rows. A value longer than a pre-existing column's declared length is refused as a
 * row, naming table, column and key, and nothing is cut; a delete by a long key never hits the row of its prefix.
 */
class PostgresSetWriteTruncationIT {
    static final TableId T = new TableId("public", "codes");
    static final RowSchema S = new RowSchema(List.of(new Column("code", ColumnType.of("string"), false),
            new Column("note", ColumnType.of("string"), true)), List.of("code"));

    TargetDatabase target;
    JdbcChangeSink sink;

    @BeforeEach
    void open() throws Exception {
        target = TargetDatabase.postgres();
    }

    @AfterEach
    void close() throws Exception {
        if (sink != null) {
            sink.close();
        }
        target.close();
    }

    private void execute(String sql) throws Exception {
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private void openSink() throws Exception {
        sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults("truncation"));
    }

    private static ChangeEvent upsert(String code, String note, long lsn) {
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("code", code);
        Map<String, Object> row = new LinkedHashMap<>(key);
        row.put("note", note);
        return new ChangeEvent.Upsert(T, key, S, row, new SourcePosition.Lsn(lsn), ChangeEvent.Op.CREATE);
    }

    private static ChangeEvent delete(String code, long lsn) {
        return new ChangeEvent.Delete(T, Map.of("code", code), new SourcePosition.Lsn(lsn), false);
    }

    private List<List<String>> rows() throws Exception {
        List<List<String>> out = new ArrayList<>();
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT code, note FROM codes ORDER BY code")) {
            while (rs.next()) {
                out.add(List.of(rs.getString(1), rs.getString(2)));
            }
        }
        return out;
    }

    @Test
    void aKeyLongerThanAVarcharColumnIsRefusedNamingTableColumnAndKeyNeverCut() throws Exception {
        execute("CREATE TABLE codes (code varchar(3) PRIMARY KEY, note varchar(3))");
        openSink();
        assertThatThrownBy(() -> sink.apply(List.of(upsert("abcdef", "n1", 1), upsert("abcxyz", "n2", 2)),
                List.of(new PartitionOffset("codes", 0, 2))))
                .isInstanceOf(SinkException.class)
                .satisfies(e -> assertThat(((SinkException) e).failure()).isInstanceOf(Failure.RowRejected.class))
                .hasMessageContaining("table codes")
                .hasMessageContaining("column code")
                .hasMessageContaining("abcdef")
                .hasMessageContaining("character varying(3)");
        assertThat(rows()).isEmpty();
        assertThat(sink.storedOffsets()).isEmpty();
    }

    @Test
    void aValueLongerThanACharColumnIsRefusedNamingTableColumnAndKey() throws Exception {
        execute("CREATE TABLE codes (code varchar(3) PRIMARY KEY, note char(3))");
        openSink();
        assertThatThrownBy(() -> sink.apply(List.of(upsert("k1", "long note", 1)), List.of(new PartitionOffset("codes", 0, 1))))
                .isInstanceOf(SinkException.class)
                .hasMessageContaining("table codes")
                .hasMessageContaining("column note")
                .hasMessageContaining("k1")
                .hasMessageContaining("character(3)");
        assertThat(rows()).isEmpty();
    }

    @Test
    void valuesThatFitAreWrittenAndADeleteByALongerKeyLeavesThePrefixRowAlone() throws Exception {
        execute("CREATE TABLE codes (code varchar(3) PRIMARY KEY, note char(3))");
        openSink();
        sink.apply(List.of(upsert("abc", "n1", 1), upsert("é", "n2", 2)), List.of(new PartitionOffset("codes", 0, 2)));
        sink.apply(List.of(delete("abcdef", 3)), List.of(new PartitionOffset("codes", 0, 3)));
        assertThat(rows()).containsExactly(List.of("abc", "n1 "), List.of("é", "n2 "));
    }
}
