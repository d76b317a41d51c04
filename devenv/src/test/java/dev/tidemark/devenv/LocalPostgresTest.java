package dev.tidemark.devenv;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class LocalPostgresTest {

    @Test
    @Timeout(180)
    void startsALogicalDecodingClusterAndRemovesItOnClose() throws Exception {
        // inside a new folder of its own, as the benchmarks start it (as root, the postgres account must pass through it)
        Path parent = ServerFolders.newTemporary(null, "tidemark-pg-test-");
        try {
            verifyStartAndClose(parent.resolve("pg"), base -> LocalPostgres.start(base));
        } finally {
            java.nio.file.Files.deleteIfExists(parent);
        }
    }

    /** The fallback for machines without PostgreSQL binaries; downloads ~15 MB from Maven Central on first use. */
    @Test
    @Timeout(600)
    void startsWithTheZonkyBinaries() throws Exception {
        // Not JUnit's @TempDir: when the tests run as root, the postgres user must be able to enter the parent.
        Path baseDir = Path.of(System.getProperty("java.io.tmpdir"), "tidemark-pg-test-" + UUID.randomUUID());
        LocalPostgres used = verifyStartAndClose(baseDir, base -> LocalPostgres.start(base, PostgresBinaries.zonky(), false));
        assertThat(used.version()).startsWith("17.");
    }

    private interface Starter {
        LocalPostgres start(Path baseDir);
    }

    private static LocalPostgres verifyStartAndClose(Path baseDir, Starter starter) throws Exception {
        LocalPostgres postgres = starter.start(baseDir);
        long serverPid;
        ProcessHandle watchdog;
        try {
            serverPid = postgres.serverPid();
            watchdog = postgres.watchdogHandle();
            assertThat(postgres.host()).isEqualTo("127.0.0.1");
            assertThat(postgres.jdbcUrl("postgres")).isEqualTo("jdbc:postgresql://127.0.0.1:" + postgres.port() + "/postgres");
            assertThat(postgres.startupMillis()).isPositive();
            try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl("postgres"), postgres.user(), "");
                 Statement statement = connection.createStatement()) {
                assertThat(single(statement, "SHOW wal_level")).isEqualTo("logical");
                assertThat(single(statement, "SELECT slot_name FROM pg_create_logical_replication_slot('t', 'pgoutput')"))
                        .isEqualTo("t");
                assertThat(single(statement, "SELECT plugin FROM pg_replication_slots WHERE slot_name = 't'"))
                        .isEqualTo("pgoutput");
                statement.execute("SELECT pg_drop_replication_slot('t')");
            }
        } finally {
            postgres.close();
        }
        assertThat(baseDir).doesNotExist();
        assertGone(serverPid);
        assertGone(watchdog.pid());
        postgres.close(); // a second close is a no-op
        return postgres;
    }

    private static String single(Statement statement, String sql) throws Exception {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
            return rows.getString(1);
        }
    }

    private static void assertGone(long pid) throws Exception {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isPresent()) {
            handle.get().onExit().get(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS);
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("process %d alive", pid).isFalse();
    }
}
