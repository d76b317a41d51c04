package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Issue 21's mid-run target drop in {@link OperatorActionsCorpusIT#eachStopIsRecoveredByTheCommandItsLineNames}: the
 * target table the sink wrote is dropped while {@code tidemark run} (or {@code tidemark sink} beside
 * {@code tidemark capture}) runs. The next change stops the sink (exit 3) on one line naming the pipeline file and the
 * table's snapshot; its commands, followed word for word, rebuild the table and the target ends equal to the source,
 * which {@code tidemark reconcile} confirms.
 */
final class TargetDropActions {
    static final TableId ACCOUNTS = new TableId("public", "accounts");

    private TargetDropActions() {
    }

    /**
     * 200 rows applied by {@code run}; the target table dropped; 20 updates and 5 deletes at the source stop the run.
     * The line's snapshot request, then its start; 10 inserts after the start arrive too.
     */
    static void targetTableDroppedWhileRunning(OperatorActions s) throws Exception {
        CaptureFixture f = s.f;
        f.sql("CREATE TABLE public.accounts (id int PRIMARY KEY, balance int)",
                "INSERT INTO accounts SELECT g, g FROM generate_series(1, 200) g");
        Path yaml = f.writeYaml();
        Path runLog = s.dir.resolve("run.log");
        Process run = f.spawn(runLog, "run", "--config", yaml.toString());
        await("run applies the snapshot").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark run exited", () -> !run.isAlive())
                .until(() -> f.targetEqualsSource("id"));
        try (Connection t = f.connectTarget(); Statement st = t.createStatement()) {
            st.execute("DROP TABLE \"accounts\"");
        }
        f.sql("UPDATE accounts SET balance = -balance WHERE id <= 20", "DELETE FROM accounts WHERE id BETWEEN 191 AND 195");
        int code = f.awaitExit(run, runLog, Duration.ofSeconds(90), () -> "run did not stop on the dropped target table");
        String file = yaml.toString();
        String line = s.stopped(runLog, code, 3, "table accounts was written by this sink",
                "`tidemark snapshot --config " + file + " --table public.accounts`", "`tidemark run --config " + file + "`");
        assertThat(line).doesNotContain("--config F ", "--config F`", "<pipeline file>", "--replay-from");
        List<String> commands = OperatorActionsCorpusIT.commands(line);
        assertThat(commands).as("the table's snapshot, then the start")
                .containsExactly("snapshot --config " + file + " --table public.accounts", "run --config " + file);

        Path snapshotLog = s.dir.resolve("snapshot.log");
        assertThat(s.follow(snapshotLog, commands.get(0))).as(CaptureFixture.tail(snapshotLog)).isZero();
        Path again = s.dir.resolve("again.log");
        Process p = f.spawn(again, commands.get(1).split(" "));
        f.sql("INSERT INTO accounts SELECT g, g FROM generate_series(201, 210) g");
        try {
            await("the start the line names rebuilds the table from its snapshot").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(250)).failFast("tidemark " + commands.get(1) + " exited", () -> !p.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
        } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
            throw new AssertionError(e.getMessage() + "; " + f.compareSummary("id") + "\n" + CaptureFixture.tail(again), e);
        }
        stop(p, again);
        assertThat(Files.readString(again)).doesNotContain("--replay-from");
        s.reconcileFindsNoDifference(yaml);
    }

    /**
     * The same with {@code tidemark sink} beside {@code tidemark capture}: the sink's line says to request the snapshot
     * with capture stopped, then start the sink, then capture; followed in that order (capture stopped first, as the
     * line says), the target ends equal.
     */
    static void targetTableDroppedWhileSinkRuns(OperatorActions s) throws Exception {
        CaptureFixture f = s.f;
        f.sql("CREATE TABLE public.accounts (id int PRIMARY KEY, balance int)",
                "INSERT INTO accounts SELECT g, g FROM generate_series(1, 200) g");
        Path yaml = f.writeYaml();
        String file = yaml.toString();
        Path captureLog = s.dir.resolve("capture.log");
        Process capture = f.spawn(captureLog, "capture", "--config", file);
        Path sinkLog = s.dir.resolve("sink.log");
        Process sink = f.spawn(sinkLog, "sink", "--config", file);
        await("capture and sink apply the snapshot").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark sink exited", () -> !sink.isAlive()).failFast("tidemark capture exited", () -> !capture.isAlive())
                .until(() -> f.targetEqualsSource("id"));
        try (Connection t = f.connectTarget(); Statement st = t.createStatement()) {
            st.execute("DROP TABLE \"accounts\"");
        }
        f.sql("UPDATE accounts SET balance = -balance WHERE id <= 20", "DELETE FROM accounts WHERE id BETWEEN 191 AND 195");
        int code = f.awaitExit(sink, sinkLog, Duration.ofSeconds(90), () -> "sink did not stop on the dropped target table");
        String line = s.stopped(sinkLog, code, 3, "table accounts was written by this sink", "with the pipeline's capture stopped");
        assertThat(line).doesNotContain("--config F ", "--config F`", "<pipeline file>", "--replay-from");
        List<String> commands = OperatorActionsCorpusIT.commands(line);
        assertThat(commands).as("the table's snapshot, the sink, then capture").containsExactly(
                "snapshot --config " + file + " --table public.accounts", "sink --config " + file, "capture --config " + file);

        stop(capture, captureLog); // "with the pipeline's capture stopped"
        Path snapshotLog = s.dir.resolve("snapshot.log");
        assertThat(s.follow(snapshotLog, commands.get(0))).as(CaptureFixture.tail(snapshotLog)).isZero();
        Path sinkAgain = s.dir.resolve("sink-again.log");
        Process sink2 = f.spawn(sinkAgain, commands.get(1).split(" "));
        await("the sink started again waits for records").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark " + commands.get(1) + " exited", () -> !sink2.isAlive())
                .until(() -> Files.readString(sinkAgain).contains(" consuming "));
        Path captureAgain = s.dir.resolve("capture-again.log");
        Process capture2 = f.spawn(captureAgain, commands.get(2).split(" "));
        f.sql("INSERT INTO accounts SELECT g, g FROM generate_series(201, 210) g");
        try {
            await("sink then capture, as the line names them, rebuild the table from its snapshot").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(250)).failFast("tidemark " + commands.get(1) + " exited", () -> !sink2.isAlive())
                    .failFast("tidemark " + commands.get(2) + " exited", () -> !capture2.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
        } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
            throw new AssertionError(e.getMessage() + "; " + f.compareSummary("id") + "\n" + CaptureFixture.tail(sinkAgain), e);
        }
        stop(sink2, sinkAgain);
        stop(capture2, captureAgain);
        s.reconcileFindsNoDifference(yaml);
    }

    private static void stop(Process p, Path log) throws InterruptedException {
        p.destroy();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("exit code after SIGTERM; log:\n" + CaptureFixture.tail(log)).isZero();
    }
}
