package dev.tidemark.tests.sink;

import dev.tidemark.testkit.TableComparison;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fresh, empty target database for one test: a SQLite file, or a database created on the machine's PostgreSQL
 * (127.0.0.1:5432) or MariaDB (127.0.0.1:3306) and dropped afterwards. Server URLs can be overridden with
 * {@code TIDEMARK_TEST_TARGET_PG} / {@code TIDEMARK_TEST_TARGET_MARIADB} (server URL without database). When a server
 * is unreachable the test is aborted (reported as skipped) with the reason, never passed.
 */
public abstract class TargetDatabase implements AutoCloseable {
    private static final AtomicInteger COUNTER = new AtomicInteger();

    public abstract String name();

    public abstract String jdbcUrl();

    public Properties properties() {
        return new Properties();
    }

    public abstract TableComparison.QuoteStyle quotes();

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), properties());
    }

    @Override
    public abstract void close() throws Exception;

    protected static String uniqueName() {
        return "tidemark_it_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
    }

    public static TargetDatabase sqlite() throws Exception {
        return new Sqlite(Files.createTempDirectory("tidemark-sqlite-target-"));
    }

    public static TargetDatabase postgres() {
        String server = env("TIDEMARK_TEST_TARGET_PG", "jdbc:postgresql://127.0.0.1:5432/");
        return new Server("postgresql", server, "postgres", TableComparison.QuoteStyle.DOUBLE,
                db -> "CREATE DATABASE " + db, db -> "DROP DATABASE IF EXISTS " + db + " WITH (FORCE)", "postgres");
    }

    public static TargetDatabase mariadb() {
        String server = env("TIDEMARK_TEST_TARGET_MARIADB", "jdbc:mariadb://127.0.0.1:3306/");
        return new Server("mariadb", server, "root", TableComparison.QuoteStyle.BACKTICK,
                db -> "CREATE DATABASE " + db + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", db -> "DROP DATABASE IF EXISTS " + db, "");
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    private static final class Sqlite extends TargetDatabase {
        private final Path dir;

        Sqlite(Path dir) {
            this.dir = dir;
        }

        @Override
        public String name() {
            return "sqlite";
        }

        @Override
        public String jdbcUrl() {
            return "jdbc:sqlite:" + dir.resolve("target.db");
        }

        @Override
        public TableComparison.QuoteStyle quotes() {
            return TableComparison.QuoteStyle.DOUBLE;
        }

        @Override
        public void close() throws Exception {
            try (var s = Files.walk(dir)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static final class Server extends TargetDatabase {
        private final String name;
        private final String server;
        private final String user;
        private final TableComparison.QuoteStyle quotes;
        private final java.util.function.UnaryOperator<String> drop;
        private final String database = uniqueName();

        Server(String name, String server, String user, TableComparison.QuoteStyle quotes,
               java.util.function.UnaryOperator<String> create, java.util.function.UnaryOperator<String> drop, String adminDb) {
            this.name = name;
            this.server = server.endsWith("/") ? server : server + "/";
            this.user = user;
            this.quotes = quotes;
            this.drop = drop;
            try (Connection c = DriverManager.getConnection(this.server + adminDb, props(user)); Statement s = c.createStatement()) {
                s.execute(create.apply(database));
            } catch (SQLException e) {
                throw new IllegalStateException(name + " target at " + this.server + " is not reachable (" + e.getMessage()
                        + "); these tests need it running, or TIDEMARK_TEST_TARGET_" + (name.equals("mariadb") ? "MARIADB" : "PG"), e);
            }
        }

        private static Properties props(String user) {
            Properties p = new Properties();
            p.setProperty("user", user);
            return p;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String jdbcUrl() {
            return server + database;
        }

        @Override
        public Properties properties() {
            return props(user);
        }

        @Override
        public TableComparison.QuoteStyle quotes() {
            return quotes;
        }

        @Override
        public void close() throws Exception {
            if (System.getenv("TIDEMARK_TEST_KEEP_DB") != null) {
                return; // debugging aid: leave the database for inspection
            }
            try (Connection c = DriverManager.getConnection(server + (name.equals("postgresql") ? "postgres" : ""), props(user));
                 Statement s = c.createStatement()) {
                s.execute(drop.apply(database));
            }
        }
    }
}
