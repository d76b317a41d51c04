package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 item 11: Ctrl-C during the initial snapshot left a pipeline whose next start was refused, and nothing said
 * so at the stop. Now the stop says what it means — the snapshot does not resume — and names the commands that
 * continue; following them word for word ({@code run --resnapshot}, then {@code reconcile --repair --apply}) ends with
 * the target equal to the source, rows deleted meanwhile included.
 */
class RunCtrlCDuringSnapshotIT {
    static final TableId T = new TableId("public", "bulk");
    static final int ROWS = 300_000;

    @TempDir
    Path dir;

    @Test
    void ctrlCDuringTheSnapshotSaysWhatItMeansAndTheNamedCommandsContinue() throws Exception {
        try (CaptureFixture f = new CaptureFixture("ctrlc_snapshot", dir, List.of(T))) {
            f.sql("CREATE TABLE public.bulk (id int PRIMARY KEY, note text)",
                    "INSERT INTO bulk SELECT g, repeat('x', 200) FROM generate_series(1, " + ROWS + ") g");
            Path yaml = f.writeYaml();
            Path log = dir.resolve("run.log");
            Process p = f.spawn(log, "run", "--config", yaml.toString());
            await("the snapshot has begun to arrive").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
                    .failFast("tidemark run exited early", () -> !p.isAlive())
                    .until(() -> targetRows(f) > 0);
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).inheritIO().start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("exited after SIGINT").isTrue();
            int applied = targetRows(f);
            assertThat(applied).as("the stop came during the snapshot (rows applied)").isBetween(1, ROWS - 1);
            assertThat(p.exitValue()).as("exit code; log:\n" + CaptureFixture.tail(log)).isEqualTo(130);
            List<String> errors = CaptureFixture.errorLines(log);
            assertThat(errors).as("one line saying what the stop means; log:\n" + CaptureFixture.tail(log)).hasSize(1);
            String line = errors.get(0);
            System.out.println("after Ctrl-C during the snapshot: " + line);
            assertThat(line).contains("stopped during its initial snapshot").contains("does not resume");
            assertThat(CaptureFixture.stackTraceLines(log)).isEmpty();
            List<String> commands = commands(line);
            assertThat(commands).containsExactly("run --config " + yaml + " --resnapshot", "reconcile --config " + yaml + " --repair --apply");

            f.sql("DELETE FROM bulk WHERE id <= 10"); // rows the first snapshot may have applied, gone from the source

            Path again = dir.resolve("resnapshot.log");
            Process q = f.spawn(again, commands.get(0).split(" "));
            await("the named command takes the snapshot again").atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(500))
                    .failFast("tidemark " + commands.get(0) + " exited", () -> !q.isAlive())
                    .until(() -> count(f, "SELECT count(*) FROM bulk WHERE id > 10") == ROWS - 10);
            q.destroy();
            assertThat(q.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(q.exitValue()).as("exit code; log:\n" + CaptureFixture.tail(again)).isZero();
            Path repair = dir.resolve("repair.log");
            assertThat(f.runToEnd(repair, (commands.get(1) + " --settle 1s").split(" "))).as(CaptureFixture.tail(repair)).isZero();
            assertThat(f.targetEqualsSource("id")).as(f.compareSummary("id")).isTrue();
        }
    }

    private static List<String> commands(String line) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("`tidemark ([^`]*)`").matcher(line);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static int targetRows(CaptureFixture f) {
        return count(f, "SELECT count(*) FROM bulk");
    }

    private static int count(CaptureFixture f, String sql) {
        if (!Files.exists(dir(f).resolve("target.db"))) {
            return 0;
        }
        try (Connection c = DriverManager.getConnection(f.targetUrl()); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (java.sql.SQLException e) {
            return 0;
        }
    }

    private static Path dir(CaptureFixture f) {
        return f.dir;
    }
}
