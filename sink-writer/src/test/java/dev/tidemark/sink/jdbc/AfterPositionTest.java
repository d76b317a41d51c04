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
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reconcile repairs carry a position just after the stored one ({@link SourcePosition.After}): it wins over the
 * stale row and a replay of the event that wrote it, and loses to any later event.
 */
class AfterPositionTest {
    @TempDir
    Path dir;

    @Test
    void encodesJustAfterTheStoredPositionAndBeforeEveryLaterOne() {
        SourcePosition stored = new SourcePosition.Lsn(0x16B3748L);
        SourcePosition after = new SourcePosition.After(stored);
        String encoded = after.encode();
        assertThat(encoded).isEqualTo(stored.encode() + "~");
        assertThat(encoded.compareTo(stored.encode())).isPositive();
        assertThat(after.compareTo(stored)).isPositive();
        assertThat(encoded.compareTo(new SourcePosition.Lsn(0x16B3749L).encode())).isNegative();
        assertThat(after.compareTo(new SourcePosition.Lsn(0x16B3749L))).isNegative();
        assertThat(new SourcePosition.After(after).encode().compareTo(encoded)).isPositive();
        assertThat(new SourcePosition.After(after).compareTo(after)).isPositive();
        SourcePosition cursor = new SourcePosition.Watermark("2026-01-02T03:04:05.000000000Z");
        SourcePosition laterCursor = new SourcePosition.Watermark("2026-01-02T03:04:05.000000001Z");
        assertThat(new SourcePosition.After(cursor).encode().compareTo(laterCursor.encode())).isNegative();
        assertThat(new SourcePosition.After(cursor).compareTo(laterCursor)).isNegative();
    }

    @Test
    void aRepairWinsOverTheStaleRowAndItsReplayButNotOverALaterEvent() throws SQLException {
        String url = "jdbc:sqlite:" + dir.resolve("t.db");
        TableId t = new TableId("public", "items");
        RowSchema s = SqliteChangeSinkTest.schema("id", "label");
        try (JdbcChangeSink sink = JdbcChangeSink.open(url, new Properties(), SinkOptions.defaults("p1"))) {
            ChangeEvent.Upsert stale = SqliteChangeSinkTest.upsert(t, s, 1, "stale", 100);
            sink.apply(List.of(stale), List.of());
            SourcePosition stored = SourcePosition.decode(new SourcePosition.Lsn(100).encode());

            ChangeEvent.Upsert repair = new ChangeEvent.Upsert(t, stale.key(), s, withLabel(stale, "repaired"),
                    new SourcePosition.After(stored), ChangeEvent.Op.READ);
            sink.apply(List.of(repair), List.of());
            assertThat(label(url)).isEqualTo("repaired");

            sink.apply(List.of(stale), List.of());
            assertThat(label(url)).as("a replay of the stale event is skipped").isEqualTo("repaired");

            sink.apply(List.of(SqliteChangeSinkTest.upsert(t, s, 1, "later", 101)), List.of());
            assertThat(label(url)).as("a later event wins over the repair").isEqualTo("later");
        }
    }

    private static java.util.Map<String, Object> withLabel(ChangeEvent.Upsert u, String label) {
        java.util.Map<String, Object> row = new java.util.LinkedHashMap<>(u.row());
        row.put("label", label);
        return row;
    }

    private static String label(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT label FROM items WHERE id = 1")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
