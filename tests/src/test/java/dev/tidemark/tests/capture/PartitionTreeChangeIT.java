package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A captured partitioned table's tree changing while {@code tidemark run} streams. A partition created is followed:
 * it gets {@code REPLICA IDENTITY FULL} like the others and its rows arrive. Detaching a partition and attaching a
 * table that holds rows write no row events (the rows leave or join the root unseen), so capture stops with one line
 * naming the partition and the repair that makes the target exact; following that line word for word, the target
 * equals the source and capture starts again.
 */
class PartitionTreeChangeIT {
    static final TableId M = new TableId("public", "m");

    @TempDir
    Path dir;

    @Test
    void aCreatedPartitionIsFollowedAndADetachedOneStopsCaptureNamingTheRepair() throws Exception {
        try (CaptureFixture f = new CaptureFixture("tree_detach", dir, List.of(M))) {
            createRoot(f);
            Path yaml = f.writeYaml();
            Path log = dir.resolve("run.log");
            Process run = f.spawn(log, "run", "--config", yaml.toString());
            awaitEqual(f, run, log);

            f.sql("CREATE TABLE public.m_3 PARTITION OF public.m FOR VALUES FROM (200) TO (300)");
            await("REPLICA IDENTITY FULL on the new partition public.m_3").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200)).until(() -> "f".equals(identity(f, "m_3")));
            f.sql("INSERT INTO m SELECT g, 'c' || g FROM generate_series(200, 209) g", "UPDATE m SET v = 'u' WHERE id = 201",
                    "DELETE FROM m WHERE id = 202");
            awaitEqual(f, run, log);

            f.sql("ALTER TABLE m DETACH PARTITION m_1", "INSERT INTO m VALUES (190, 'after the detach')");
            int exit = f.awaitExit(run, log, Duration.ofSeconds(60), () -> f.compareSummary("id"));
            assertThat(exit).as(CaptureFixture.tail(log)).isEqualTo(3);
            assertThat(CaptureFixture.stackTraceLines(log)).isEmpty();
            List<String> lines = CaptureFixture.errorLines(log);
            assertThat(lines).as(CaptureFixture.tail(log)).containsExactly("tidemark: capture stopped: partition public.m_1 left "
                    + "captured table public.m while capture ran (detached or dropped), and the target still holds the rows it took "
                    + "along: run `tidemark reconcile --config " + yaml + " --repair --apply --force` to delete them there "
                    + "(--force: they may be more than a tenth of the table), then start capture again");

            followAndRestart(f, yaml, lines.get(0));
        }
    }

    @Test
    void aTableWithRowsAttachedAsAPartitionStopsCaptureNamingTheRepair() throws Exception {
        try (CaptureFixture f = new CaptureFixture("tree_attach", dir, List.of(M))) {
            createRoot(f);
            f.sql("CREATE TABLE public.m_old (id int NOT NULL, v text)", "INSERT INTO m_old SELECT g, 'old' || g FROM generate_series(300, 319) g");
            Path yaml = f.writeYaml();
            Path log = dir.resolve("run.log");
            Process run = f.spawn(log, "run", "--config", yaml.toString());
            awaitEqual(f, run, log);

            f.sql("ALTER TABLE m ATTACH PARTITION m_old FOR VALUES FROM (300) TO (400)");
            int exit = f.awaitExit(run, log, Duration.ofSeconds(60), () -> f.compareSummary("id"));
            assertThat(exit).as(CaptureFixture.tail(log)).isEqualTo(3);
            assertThat(CaptureFixture.stackTraceLines(log)).isEmpty();
            List<String> lines = CaptureFixture.errorLines(log);
            assertThat(lines).as(CaptureFixture.tail(log)).containsExactly("tidemark: capture stopped: table public.m_old was "
                    + "attached to captured table public.m while capture ran, with rows capture never saw: run `tidemark reconcile "
                    + "--config " + yaml + " --repair --apply` to copy them to the target, then start capture again");

            followAndRestart(f, yaml, lines.get(0));
        }
    }

    private static void createRoot(CaptureFixture f) throws SQLException {
        f.sql("CREATE TABLE public.m (id int, v text, PRIMARY KEY (id)) PARTITION BY RANGE (id)",
                "CREATE TABLE public.m_1 PARTITION OF public.m FOR VALUES FROM (0) TO (100)",
                "CREATE TABLE public.m_2 PARTITION OF public.m FOR VALUES FROM (100) TO (200)",
                "INSERT INTO m SELECT g, 'v' || g FROM generate_series(1, 150) g");
    }

    /** Runs the command the line names (between backticks), then starts capture again and streams one more change. */
    private static void followAndRestart(CaptureFixture f, Path yaml, String line) throws Exception {
        String command = line.substring(line.indexOf('`') + 1, line.lastIndexOf('`'));
        assertThat(command).startsWith("tidemark ");
        Path repairLog = f.dir.resolve("repair.log");
        int exit = f.runToEnd(repairLog, command.substring("tidemark ".length()).split(" "));
        assertThat(exit).as(CaptureFixture.tail(repairLog)).isZero();
        assertThat(f.targetEqualsSource("id")).as(f.compareSummary("id")).isTrue();

        Path log = f.dir.resolve("run-again.log");
        Process again = f.spawn(log, "run", "--config", yaml.toString());
        f.sql("INSERT INTO m VALUES (160, 'after the restart')", "UPDATE m SET v = 'again' WHERE id = 120");
        awaitEqual(f, again, log);
    }

    private static void awaitEqual(CaptureFixture f, Process run, Path log) {
        await("target equal to source while tidemark run streams").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark run exited: " + log, () -> !run.isAlive())
                .until(() -> f.targetEqualsSource("id"));
    }

    private static String identity(CaptureFixture f, String table) throws SQLException {
        try (Statement s = f.source.createStatement();
             ResultSet rs = s.executeQuery("SELECT relreplident FROM pg_class WHERE relname = '" + table + "'")) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out.isEmpty() ? null : out.get(0);
        }
    }
}
