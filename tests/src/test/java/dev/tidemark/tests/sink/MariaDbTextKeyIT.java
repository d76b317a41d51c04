package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.sink.jdbc.PartitionOffset;
import dev.tidemark.jdbc.SinkException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MariaDB: the database has the server's usual case- and accent-insensitive default collation, so only key columns
 * the sink creates with a binary collation keep distinct keys apart. A key that cannot fit MariaDB's 3072-byte index
 * limit is refused before anything is written; an unbounded text key value longer than what fits is refused, never
 * cut to a prefix.
 */
class MariaDbTextKeyIT extends AbstractTextKeyIT {
    @Override
    TargetDatabase target() {
        return TargetDatabase.mariadb();
    }

    @Override
    void prepare(Connection admin) throws Exception {
        try (Statement s = admin.createStatement()) {
            s.execute("ALTER DATABASE CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci");
        }
    }

    private boolean tableExists() throws Exception {
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'codes'")) {
            rs.next();
            return rs.getInt(1) > 0;
        }
    }

    @Test
    void aKeyThatCannotFitTheIndexIsRefusedBeforeAnythingIsWritten() throws Exception {
        RowSchema s = schema(new ColumnType("string", null, Map.of("__debezium.source.column.type", "VARCHAR",
                "__debezium.source.column.length", "1000")));
        assertThatThrownBy(() -> sink.apply(List.of(upsert(s, 1, "a", "n", 1)), List.of(new PartitionOffset("codes", 0, 1))))
                .isInstanceOf(SinkException.class)
                .hasMessageContaining("table codes")
                .hasMessageContaining("column code")
                .hasMessageContaining("3072");
        assertThat(tableExists()).isFalse();
        assertThat(sink.storedOffsets()).isEmpty();
    }

    @Test
    void anUnboundedTextKeyLongerThanWhatFitsIsRefusedNotCut() throws Exception {
        RowSchema s = schema(ColumnType.of("string"));
        String prefix = "p".repeat(800);
        sink.apply(List.of(upsert(s, 1, "short", "fits", 1)), List.of(new PartitionOffset("codes", 0, 1)));
        assertThatThrownBy(() -> sink.apply(List.of(upsert(s, 1, prefix + "1", "one", 2), upsert(s, 1, prefix + "2", "two", 3)),
                List.of(new PartitionOffset("codes", 0, 3))))
                .isInstanceOf(SinkException.class)
                .hasMessageContaining("table codes");
        assertThat(rows()).containsExactly(List.of("1", "short", "fits"));
        assertThat(sink.storedOffsets()).isEqualTo(Map.of("codes", Map.of(0, 1L)));
    }
}
