package dev.tidemark.tests;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;

/**
 * A JDBC target for sink tests: a SQLite file, or a fresh database on the machine's PostgreSQL (127.0.0.1:5432, user
 * {@code postgres}, trust auth) or MariaDB (127.0.0.1:3306, {@code root}, empty password). A server that does not
 * answer aborts the calling test with the reason (reported as skipped, never as passed). {@link #close()} drops the
 * database it created.
 */
final class SinkTarget implements AutoCloseable {
    private static final AtomicInteger DATABASES = new AtomicInteger();

    final String kind;
    final String jdbcUrl;
    final String user;
    final String password;
    private final char quote;
    private final String adminUrl;
    private final String dropSql;

    private SinkTarget(String kind, String jdbcUrl, String user, String password, char quote, String adminUrl, String dropSql) {
        this.kind = kind;
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
        this.quote = quote;
        this.adminUrl = adminUrl;
        this.dropSql = dropSql;
    }

    static SinkTarget sqlite(Path file) {
        return new SinkTarget("sqlite", "jdbc:sqlite:" + file.toAbsolutePath(), null, "", '"', null, null);
    }

    /** A new database on the machine's PostgreSQL, or an aborted test if the server does not answer. */
    static SinkTarget postgres(String hint) {
        String server = "jdbc:postgresql://127.0.0.1:5432/";
        String db = databaseName(hint);
        createDatabase("PostgreSQL", server + "postgres?connectTimeout=5", "postgres", "CREATE DATABASE " + db);
        return new SinkTarget("postgres", server + db, "postgres", "", '"', server + "postgres",
                "DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
    }

    /** A new database on the machine's MariaDB, or an aborted test if the server does not answer. */
    static SinkTarget mariadb(String hint) {
        String server = "jdbc:mariadb://127.0.0.1:3306/";
        String db = databaseName(hint);
        createDatabase("MariaDB", server + "?connectTimeout=5000", "root",
                "CREATE DATABASE " + db + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
        return new SinkTarget("mariadb", server + db, "root", "", '`', server, "DROP DATABASE IF EXISTS " + db);
    }

    private static String databaseName(String hint) {
        return ("tm_" + hint + "_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet())
                .toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
    }

    private static void createDatabase(String engine, String url, String user, String sql) {
        Connection c;
        try {
            c = DriverManager.getConnection(url, props(user, ""));
        } catch (SQLException e) {
            Assumptions.abort(engine + " target server " + url + " is not reachable as " + user + " (" + e.getMessage()
                    + "): this target's tests are skipped");
            return;
        }
        try (c; Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(engine + ": " + sql + " failed: " + e.getMessage(), e);
        }
    }

    private static Properties props(String user, String password) {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
            p.setProperty("password", password);
        }
        return p;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, props(user, password));
    }

    String quote(String identifier) {
        String q = String.valueOf(quote);
        return q + identifier.replace(q, q + q) + q;
    }

    /** The offsets the pipeline stored in {@code tidemark_offsets} for {@code topic}, by partition; empty if none yet. */
    Map<Integer, Long> storedOffsets(Connection c, String pipeline, String topic) {
        Map<Integer, Long> out = new HashMap<>();
        String sql = "SELECT " + quote("partition") + ", " + quote("next_offset") + " FROM " + quote("tidemark_offsets")
                + " WHERE " + quote("pipeline") + " = ? AND " + quote("topic") + " = ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, pipeline);
            ps.setString(2, topic);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getInt(1), rs.getLong(2));
                }
            }
        } catch (SQLException e) {
            return Map.of(); // the sink has not created the table yet
        }
        return out;
    }

    @Override
    public String toString() {
        return kind + " " + jdbcUrl;
    }

    @Override
    public void close() throws SQLException {
        if (dropSql == null) {
            return;
        }
        try (Connection c = DriverManager.getConnection(adminUrl, props(user, "")); Statement s = c.createStatement()) {
            s.execute(dropSql);
        }
    }
}
