package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.SinkException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A table the sink wrote, dropped behind its back (SQLite file, in-process). */
class SqliteDroppedTableTest {
    static final TableId T = new TableId("main", "items");
    static final RowSchema S = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false),
            new Column("qty", ColumnType.of("int64"), true)), List.of("id"));

    @TempDir
    Path dir;

    static ChangeEvent upsert(long id, long lsn) {
        return new ChangeEvent.Upsert(T, Map.of("id", id), S, Map.of("id", id, "qty", id), new SourcePosition.Lsn(lsn), ChangeEvent.Op.CREATE);
    }

    private void drop(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("DROP TABLE items");
        }
    }

    @Test
    void upsertsAndDeletesOnADroppedTableStopNamingTheRecovery() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("t.db");
        try (JdbcChangeSink sink = JdbcChangeSink.open(url, new Properties(), SinkOptions.defaults("p"))) {
            sink.apply(List.of(upsert(1, 1)), List.of(new PartitionOffset("t", 0, 1)));
            drop(url);
            assertThatThrownBy(() -> sink.apply(List.of(upsert(2, 2)), List.of(new PartitionOffset("t", 0, 2))))
                    .isInstanceOf(SinkException.class)
                    .hasMessageStartingWith("table items was written by this sink")
                    .hasMessageEndingWith(DroppedTableAdvice.RESTORE.wayOn("items"));
            assertThatThrownBy(() -> sink.apply(List.of(new ChangeEvent.Delete(T, Map.of("id", 1L), new SourcePosition.Lsn(3), false)),
                    List.of(new PartitionOffset("t", 0, 3))))
                    .isInstanceOf(SinkException.class)
                    .hasMessageStartingWith("table items was written by this sink");
            assertThat(sink.storedOffsets()).isEqualTo(Map.of("t", Map.of(0, 1L)));
            assertThat(sink.knownColumns("items")).isEmpty();
        }
        try (JdbcChangeSink replay = JdbcChangeSink.open(url, new Properties(), SinkOptions.defaults("p").rebuildingDroppedTables())) {
            replay.apply(List.of(upsert(1, 1), upsert(2, 2)), List.of(new PartitionOffset("t", 0, 2)));
            assertThat(replay.knownColumns("items")).contains("id", "qty");
        }
    }

    @Test
    void aTruncateOfADroppedTableStopsToo() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("t.db");
        try (JdbcChangeSink sink = JdbcChangeSink.open(url, new Properties(), new SinkOptions("p", SinkOptions.DEFAULT_POSITION_COLUMN, true))) {
            sink.apply(List.of(upsert(1, 1)), List.of(new PartitionOffset("t", 0, 1)));
            drop(url);
            assertThatThrownBy(() -> sink.apply(List.of(new ChangeEvent.Truncate(T, new SourcePosition.Lsn(2))), List.of(new PartitionOffset("t", 0, 2))))
                    .isInstanceOf(SinkException.class)
                    .hasMessageStartingWith("table items was written by this sink");
            assertThat(sink.storedOffsets()).isEqualTo(Map.of("t", Map.of(0, 1L)));
        }
    }

    @Test
    void deletesOfATableTheSinkNeverWroteAreStillSkipped() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("t.db");
        try (JdbcChangeSink sink = JdbcChangeSink.open(url, new Properties(), SinkOptions.defaults("p"))) {
            sink.apply(List.of(new ChangeEvent.Delete(T, Map.of("id", 1L), new SourcePosition.Lsn(1), false)), List.of(new PartitionOffset("t", 0, 1)));
            assertThat(sink.storedOffsets()).isEqualTo(Map.of("t", Map.of(0, 1L)));
            assertThat(sink.knownColumns("items")).isEmpty();
        }
    }
}
