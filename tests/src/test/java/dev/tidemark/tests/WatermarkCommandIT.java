package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tidemark watermark} end to end: one-off options, a config file with several tables, tumbling windows, usage errors, {@code --every}. */
class WatermarkCommandIT {
    @TempDir
    Path dir;
    Path source;
    String out;
    String err;

    @BeforeEach
    void source() throws Exception {
        source = dir.resolve("shop.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, modified DATETIME, name TEXT, price NUMERIC(8,2))");
            s.execute("CREATE TABLE orders (order_id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, note TEXT)");
            s.execute("CREATE INDEX ix_orders_seq ON orders (seq)");
            for (int i = 1; i <= 48; i++) {
                s.execute(String.format("INSERT INTO items VALUES (%d, '2013-%02d-%02d 12:00:00', 'item %d', %d.25)", i, (i - 1) / 4 + 1, (i - 1) % 4 * 7 + 1, i, i));
                s.execute("INSERT INTO orders VALUES (" + i + ", " + (1000 + i) + ", 'order " + i + "')");
            }
            s.execute("INSERT INTO items VALUES (49, NULL, 'never stamped', 1), (50, NULL, 'never stamped', 2)");
        }
    }

    int tidemark(String... args) {
        CliRun r = CliRun.run(args);
        out = r.out();
        err = r.err();
        return r.exit();
    }

    @Test
    void oneOffRunsWithoutAConfigFile_probesWarnWithTheirFix_secondRunCopiesNothing() throws Exception {
        String target = "jdbc:sqlite:" + dir.resolve("replica.db");
        String[] args = {"watermark", "--source", "jdbc:sqlite:" + source, "--target", target, "--table", "items",
            "--key", "id", "--cursor", "modified", "--overlap", "1d", "--settle", "5s", "--no-progress"};
        assertThat(tidemark(args)).as(err).isZero();
        assertThat(out).contains("items: initial window").contains("48 rows");
        assertThat(err).contains("warning [index]").contains("CREATE INDEX \"ix_items_modified\" ON \"items\" (\"modified\")");
        assertThat(err).contains("warning [nulls]").contains("2 rows have a NULL cursor modified");
        assertThat(WatermarkJobs.keys(dir.resolve("replica.db"), "items", "id")).hasSize(48);

        assertThat(tidemark(args)).isZero();
        assertThat(out).as("the 1d overlap re-reads the last day's row, nothing else")
                .contains("items: incremental window (2013-12-21T12:00:00.000000000, 2013-12-22T12:00:00.000000000]").contains(": 1 row ");
        assertThat(err).doesNotContain("warning [index]").as("probes run before the first run only");
    }

    @Test
    void aConfigFileListsManyTables_eachGetsItsControlRow() throws Exception {
        Path file = dir.resolve("shop.yaml");
        Files.writeString(file, String.join("\n",
                "name: shop",
                "source: { url: 'jdbc:sqlite:" + source + "' }",
                "target: { url: 'jdbc:sqlite:" + dir.resolve("replica.db") + "' }",
                "defaults: { settle: 0s, chunkSize: 10 }",
                "tables:",
                "  - table: items",
                "    cursor: modified",
                "  - table: orders",
                "    cursor: [seq]",
                "    overlap: 5",
                ""));
        assertThat(tidemark("watermark", "--config", file.toString(), "--no-progress")).as(err).isZero();
        assertThat(out).contains("items: initial").contains("orders: initial");
        assertThat(WatermarkJobs.keys(dir.resolve("replica.db"), "orders", "order_id")).hasSize(48);
        assertThat(WatermarkJobs.text(dir.resolve("replica.db"), "SELECT group_concat(table_name || '=' || cursor_kind || ':' || wm_position, ' ') FROM "
                + "(SELECT * FROM tidemark_watermarks ORDER BY table_name)"))
                .isEqualTo("items=timestamp:2013-12-22T12:00:00.000000000 orders=id:00000000000000001048");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement s = c.createStatement()) {
            s.execute("INSERT INTO orders VALUES (49, 1049, 'new')");
        }
        assertThat(tidemark("watermark", "--config", file.toString(), "--table", "orders")).isZero();
        assertThat(out).contains("orders: incremental").contains("6 rows").doesNotContain("items:");
    }

    @Test
    void tumblingWindowsKeepNoStateAndCanBeRerun() throws Exception {
        String target = "jdbc:sqlite:" + dir.resolve("backfill.db");
        String[] args = {"watermark", "--source", "jdbc:sqlite:" + source, "--target", target, "--table", "items",
            "--cursor", "modified", "--window-start", "2013-03-01", "--window-end", "2013-05-01", "--no-progress"};
        assertThat(tidemark(args)).as(err).isZero();
        assertThat(out).contains("window [2013-03-01T00:00:00.000000000, 2013-05-01T00:00:00.000000000)").contains(": 8 rows ");
        assertThat(WatermarkJobs.keys(dir.resolve("backfill.db"), "items", "id")).containsExactly(9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L);
        assertThat(tidemark(args)).isZero();
        assertThat(out).as("rerun: same window, same rows").contains(": 8 rows");
        assertThat(WatermarkJobs.text(dir.resolve("backfill.db"), "SELECT count(*) FROM tidemark_watermarks")).isEqualTo("0");
        assertThat(WatermarkJobs.text(dir.resolve("backfill.db"), "SELECT count(*) FROM tidemark_watermark_runs WHERE mode = 'window'")).isEqualTo("2");
    }

    @Test
    void usageErrorsExitTwoAndSayWhat() {
        assertThat(tidemark("watermark", "--source", "jdbc:sqlite:" + source, "--table", "items")).isEqualTo(2);
        assertThat(err).contains("Missing --target").contains("Missing --cursor");
        assertThat(tidemark("watermark", "--source", "jdbc:sqlite:" + source, "--target", "jdbc:sqlite:" + dir.resolve("t.db"),
                "--table", "items", "--cursor", "modified", "--overlap", "soon")).isEqualTo(2);
        assertThat(err).contains("Invalid value soon for --overlap");
        assertThat(tidemark("watermark", "--source", "jdbc:sqlite:" + source, "--target", "jdbc:sqlite:" + dir.resolve("t.db"),
                "--table", "items", "--cursor", "updated_at")).isEqualTo(2);
        assertThat(err).contains("table items has no column updated_at (given as cursor)");
        assertThat(tidemark("watermark", "--source", "jdbc:sqlite:" + source, "--target", "jdbc:sqlite:" + dir.resolve("t.db"),
                "--table", "items", "--cursor", "name", "--cursor-kind", "id")).isEqualTo(2);
        assertThat(err).contains("cursor column name is TEXT, which cannot be a id cursor");
    }

    /** {@code --every} keeps running until SIGTERM, which ends the process with exit code 0. */
    @Test
    void everyKeepsRunningUntilSigterm() throws Exception {
        Path replica = dir.resolve("scheduled.db");
        List<String> command = ChildJvm.tidemark(List.of(), "watermark",
                "--source", "jdbc:sqlite:" + source, "--target", "jdbc:sqlite:" + replica, "--table", "orders",
                "--cursor", "seq", "--every", "200ms", "--no-progress");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("every.log").toFile()).start();
        try {
            await("first scheduled run copied the orders").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .failFast("process ended", () -> !p.isAlive())
                    .until(() -> Files.exists(replica) && countRuns(replica) >= 1);
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement s = c.createStatement()) {
                s.execute("INSERT INTO orders VALUES (50, 1050, 'arrives between runs')");
            }
            await("a later scheduled run copied order 50").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .failFast("process ended", () -> !p.isAlive())
                    .until(() -> WatermarkJobs.keys(replica, "orders", "order_id").contains(50L));
        } finally {
            p.destroy();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("every.log"))).isZero();
        assertThat(countRuns(replica)).isGreaterThanOrEqualTo(2);
    }

    private static int countRuns(Path replica) {
        try {
            String n = WatermarkJobs.text(replica, "SELECT count(*) FROM tidemark_watermark_runs");
            return n == null ? 0 : Integer.parseInt(n);
        } catch (java.sql.SQLException e) {
            return 0;
        }
    }
}
