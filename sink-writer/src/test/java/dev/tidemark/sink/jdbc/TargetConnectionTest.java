package dev.tidemark.sink.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

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

/** Who closes the sink's connection, against a real SQLite file. */
class TargetConnectionTest {
    @TempDir
    Path dir;

    @Test
    void aBorrowedConnectionIsUsedButNeverClosedBySink() throws SQLException {
        String url = "jdbc:sqlite:" + dir.resolve("t.db");
        try (Connection mine = DriverManager.getConnection(url)) {
            TableId t = new TableId("public", "items");
            TargetConnection.Borrowed borrowed = new TargetConnection.Borrowed(mine);
            assertThat(borrowed.reconnects()).isFalse();
            assertThat(borrowed.open()).isSameAs(mine);
            JdbcChangeSink sink = new JdbcChangeSink(borrowed, dev.tidemark.jdbc.Databases.targetForUrl(url),
                    SinkOptions.defaults("p"));
            sink.apply(List.of(SqliteChangeSinkTest.upsert(t, SqliteChangeSinkTest.schema("id", "v"), 1, "a", 10)), List.of());
            sink.close();
            assertThat(mine.isClosed()).isFalse();
            mine.setAutoCommit(true);
            try (Statement s = mine.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM items WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("a");
            }
        }
    }

    @Test
    void anOwnedConnectionIsOpenedFromTheUrlAndClosedWithTheSink() throws SQLException {
        TargetConnection.Owned owned = new TargetConnection.Owned("jdbc:sqlite:" + dir.resolve("o.db"), new Properties());
        assertThat(owned.reconnects()).isTrue();
        Connection c = owned.open();
        owned.release(c);
        assertThat(c.isClosed()).isTrue();
    }

    @Test
    void ownedCopiesItsPropertiesAndNeverPrintsThem() {
        Properties p = new Properties();
        p.setProperty("password", "s3cret");
        TargetConnection.Owned owned = new TargetConnection.Owned("jdbc:postgresql://u:s3cret@h/db", p);
        p.setProperty("password", "changed");
        assertThat(owned.properties().getProperty("password")).isEqualTo("s3cret");
        assertThat(owned.toString()).doesNotContain("s3cret");
    }
}
