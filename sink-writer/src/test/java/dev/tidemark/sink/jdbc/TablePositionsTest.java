package dev.tidemark.sink.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the sink remembers per table survives the batch and the sink instance: a truncate keeps refusing older row
 * changes and spares newer rows, and the first transaction after a snapshot stays ordered after the snapshot's rows
 * when it arrives in a later batch of a new sink instance.
 */
class TablePositionsTest {
    static final TableId T = new TableId("public", "items");
    static final RowSchema S = SqliteChangeSinkTest.schema("id", "label");

    @TempDir
    Path dir;

    private String url() {
        return "jdbc:sqlite:" + dir.resolve("t.db");
    }

    private JdbcChangeSink open(boolean truncates) throws SQLException {
        return JdbcChangeSink.open(url(), new Properties(), new SinkOptions("p", SinkOptions.DEFAULT_POSITION_COLUMN, truncates));
    }

    @Test
    void aTruncateDeletesOnlyOlderRowsAndRefusesOlderChangesLater() throws SQLException {
        try (JdbcChangeSink sink = open(true)) {
            sink.apply(List.of(SqliteChangeSinkTest.upsert(T, S, 1, "before", 10), SqliteChangeSinkTest.upsert(T, S, 2, "after", 30)), List.of());
            sink.apply(List.of(new ChangeEvent.Truncate(T, new SourcePosition.Lsn(20))), List.of());
            assertThat(labels()).containsExactly("2=after");
        }
        try (JdbcChangeSink sink = open(true)) {
            // a change made before the truncate, read later from another partition
            sink.apply(List.of(SqliteChangeSinkTest.upsert(T, S, 3, "late but old", 15), SqliteChangeSinkTest.upsert(T, S, 4, "new", 40)), List.of());
            assertThat(labels()).containsExactly("2=after", "4=new");
            // an older truncate arriving later neither deletes newer rows nor moves the remembered one back
            sink.apply(List.of(new ChangeEvent.Truncate(T, new SourcePosition.Lsn(12))), List.of());
            sink.apply(List.of(SqliteChangeSinkTest.upsert(T, S, 5, "still old", 18)), List.of());
            assertThat(labels()).containsExactly("2=after", "4=new");
        }
    }

    @Test
    void aSnapshotSweepRemovesTheRowsTheSinkWroteButNeverTheOwnRowsOfATableTidemarkDidNotCreate() throws SQLException {
        try (Connection c = DriverManager.getConnection(url()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT)");
            s.execute("INSERT INTO items VALUES (100, 'the owner''s own row')");
        }
        try (JdbcChangeSink sink = open(false)) {
            // written from the source before the snapshot (deleted there since), then a row the snapshot read, then its sweep
            sink.apply(List.of(SqliteChangeSinkTest.upsert(T, S, 1, "gone at the source", 10),
                    SqliteChangeSinkTest.upsert(T, S, 2, "read by the snapshot", 30)), List.of());
            sink.apply(List.of(new ChangeEvent.Truncate(T, new SourcePosition.Lsn(20), true)), List.of());
            assertThat(labels()).containsExactly("2=read by the snapshot", "100=the owner's own row");
        }
    }

    @Test
    void aSnapshotSweepRemovesARowPutByHandIntoATableTheSinkCreated() throws SQLException {
        try (JdbcChangeSink sink = open(false)) {
            sink.apply(List.of(SqliteChangeSinkTest.upsert(T, S, 1, "gone at the source", 10),
                    SqliteChangeSinkTest.upsert(T, S, 2, "read by the snapshot", 30)), List.of());
            try (Connection c = DriverManager.getConnection(url()); Statement s = c.createStatement()) {
                s.execute("INSERT INTO items (id, label) VALUES (9999, 'put here by hand')");
            }
            sink.apply(List.of(new ChangeEvent.Truncate(T, new SourcePosition.Lsn(20), true)), List.of());
            assertThat(labels()).containsExactly("2=read by the snapshot");
        }
    }

    @Test
    void theFirstTransactionAfterASnapshotWinsOverItsRowsInALaterBatch() throws SQLException {
        SourcePosition.Wal snapshot = new SourcePosition.Wal(1000, SourcePosition.Phase.SNAPSHOT, 0);
        try (JdbcChangeSink sink = open(false)) {
            sink.apply(List.of(SqliteChangeSinkTest.upsert(T, S, 1, "read", 0).withPosition(snapshot)), List.of());
        }
        try (JdbcChangeSink sink = open(false)) {
            SourcePosition.Wal early = new SourcePosition.Wal(0, SourcePosition.Phase.FIRST, 900);
            sink.apply(List.of(SqliteChangeSinkTest.upsert(T, S, 1, "changed in flight", 0).withPosition(early),
                    new ChangeEvent.Delete(T, java.util.Map.of("id", 2L), early, false)), List.of());
            assertThat(labels()).containsExactly("1=changed in flight");
            // a replay of the snapshot row does not move it back
            sink.apply(List.of(SqliteChangeSinkTest.upsert(T, S, 1, "read", 0).withPosition(snapshot)), List.of());
            assertThat(labels()).containsExactly("1=changed in flight");
            // capture restarted inside that transaction: Debezium reports its last processed LSN as lastCommitLsn
            SourcePosition.Wal resumed = new SourcePosition.Wal(1000, SourcePosition.Phase.STREAM, 950);
            sink.apply(List.of(SqliteChangeSinkTest.upsert(T, S, 1, "changed after the restart", 0).withPosition(resumed)), List.of());
            assertThat(labels()).containsExactly("1=changed after the restart");
        }
    }

    @Test
    void readsPositionsStoredByEarlierVersionsAsText() throws SQLException {
        try (Connection c = DriverManager.getConnection(url()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE tidemark_table_positions (table_name TEXT NOT NULL PRIMARY KEY, truncated_at TEXT,"
                    + " snapshot_at TEXT, updated_at TEXT)");
            // as written before the position codec: truncated at LSN 20 (version 1), snapshot at LSN 1000 (0x3e8)
            s.execute("INSERT INTO tidemark_table_positions VALUES ('items', 'lsn:0000000000000014',"
                    + " 'lsn:00000000000003e8:v2:0:0000000000000000', '2026-11-30T00:00:00Z')");
        }
        try (JdbcChangeSink sink = open(true)) {
            SourcePosition.Wal early = new SourcePosition.Wal(0, SourcePosition.Phase.FIRST, 900);
            sink.apply(List.of(SqliteChangeSinkTest.upsert(T, S, 1, "older than the truncate", 15),
                    SqliteChangeSinkTest.upsert(T, S, 2, "first transaction", 0).withPosition(early)), List.of());
            assertThat(labels()).containsExactly("2=first transaction");
            // raised to the remembered snapshot: a replayed snapshot row of that key does not win over it
            sink.apply(List.of(SqliteChangeSinkTest.upsert(T, S, 2, "read", 0)
                    .withPosition(new SourcePosition.Wal(1000, SourcePosition.Phase.SNAPSHOT, 0))), List.of());
            assertThat(labels()).containsExactly("2=first transaction");
        }
    }

    @Test
    void aTombstoneNeverUndoesANewerChangeInSoftDeleteMode() throws SQLException {
        try (JdbcChangeSink sink = JdbcChangeSink.open(url(), new Properties(),
                new SinkOptions("p", SinkOptions.DEFAULT_POSITION_COLUMN, false, SinkOptions.DeleteMode.SOFT))) {
            sink.apply(List.of(SqliteChangeSinkTest.upsert(T, S, 1, "reinserted", 30)), List.of());
            // the key's older delete and its tombstone, read after the re-insert
            sink.apply(List.of(new ChangeEvent.Delete(T, java.util.Map.of("id", 1L), new SourcePosition.Lsn(20), false),
                    new ChangeEvent.Delete(T, java.util.Map.of("id", 1L), new SourcePosition.Unknown(), true)), List.of());
            try (Connection c = DriverManager.getConnection(url()); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT label, " + SinkOptions.DELETED_COLUMN + " FROM items WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("reinserted");
                assertThat(rs.getBoolean(2)).as("marked deleted").isFalse();
            }
        }
    }

    private List<String> labels() throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, label FROM items ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getLong(1) + "=" + rs.getString(2));
            }
        }
        return out;
    }
}
