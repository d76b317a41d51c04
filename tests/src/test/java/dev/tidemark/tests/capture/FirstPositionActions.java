package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Issue 21's stop before capture stored a first position, in
 * {@link OperatorActionsCorpusIT#eachStopIsRecoveredByTheCommandItsLineNames}. Deterministic: a transaction holding a
 * transaction id stays open on the source, so PostgreSQL cannot finish creating the logical slot (it waits for every
 * running transaction) and capture can store no position; {@code tidemark run} is stopped (SIGTERM) while its slot
 * waits. Capture's WARN line must name the whole command with the pipeline file; once the transaction ended the next
 * plain start refuses, and the WARN line's command, followed word for word, ends with a target equal to the source.
 */
final class FirstPositionActions {
    static final TableId LEDGER = new TableId("public", "first_ledger");
    private static final String SLOT_WAITS = "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'walsender' "
            + "AND wait_event_type = 'Lock' AND datname = current_database()";

    private FirstPositionActions() {
    }

    static void stoppedBeforeItsFirstPosition(OperatorActions s) throws Exception {
        CaptureFixture f = s.f;
        f.sql("CREATE TABLE public.first_ledger (id int PRIMARY KEY, amount int)",
                "INSERT INTO first_ledger SELECT g, g FROM generate_series(1, 100) g");
        Path yaml = f.writeYaml();
        String file = yaml.toString();
        Path log = s.dir.resolve("run.log");
        Process run;
        try (Connection holder = f.pg.connect(f.database)) {
            holder.setAutoCommit(false);
            try (Statement st = holder.createStatement()) {
                st.execute("CREATE TABLE public.held (id int)"); // takes a transaction id; kept open
            }
            run = f.spawn(log, "run", "--config", file);
            await("the slot's creation waits for the open transaction").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark run exited", () -> !run.isAlive())
                    .until(() -> count(f, SLOT_WAITS) > 0);
            Process term = new ProcessBuilder("kill", "-TERM", Long.toString(run.pid())).inheritIO().start();
            assertThat(term.waitFor(10, TimeUnit.SECONDS)).isTrue();
            await("capture warns that it stops before its first stored position").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> Files.readString(log).contains("before it stored a first position"));
            holder.rollback();
        }
        assertThat(run.waitFor(150, TimeUnit.SECONDS)).as("run exited after SIGTERM; log:\n" + CaptureFixture.tail(log)).isTrue();
        String warning = Files.readAllLines(log).stream().filter(l -> l.contains("before it stored a first position")).findFirst().orElseThrow();
        List<String> commands = OperatorActionsCorpusIT.commands(warning);
        assertThat(commands).as("the whole command in: " + warning).containsExactly("run --config " + file + " --resnapshot");
        await("the slot exists once the transaction ended").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(f::slotExists);

        Path refused = s.dir.resolve("refused.log");
        int code = f.awaitExit(f.spawn(refused, "run", "--config", file), refused, Duration.ofSeconds(60),
                () -> "the next plain start did not refuse; target vs source: " + f.compareSummary("id"));
        String refusal = s.stopped(refused, code, 3, "capture refuses to start");
        assertThat(refusal).as("nothing was captured: only the snapshot recovers").contains("`tidemark " + commands.get(0) + "`")
                .doesNotContain("--accept-gap");
        Path gap = s.dir.resolve("accept-gap.log");
        int gapCode = f.awaitExit(f.spawn(gap, "run", "--config", file, "--accept-gap"), gap, Duration.ofSeconds(60),
                () -> "--accept-gap was not refused; target vs source: " + f.compareSummary("id"));
        assertThat(s.stopped(gap, gapCode, 3, "capture refuses to start")).as("accepting a gap would leave every row out")
                .contains("nothing was captured", "`tidemark " + commands.get(0) + "`");

        Path again = s.dir.resolve("resnapshot.log");
        Process p = f.spawn(again, commands.get(0).split(" "));
        f.sql("UPDATE first_ledger SET amount = 0 WHERE id <= 10");
        try {
            await("the WARN line's command takes the snapshot and streams on").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(250)).failFast("tidemark " + commands.get(0) + " exited", () -> !p.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
        } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
            throw new AssertionError(e.getMessage() + "\n" + CaptureFixture.tail(again), e);
        }
        p.destroy();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("exit code after SIGTERM; log:\n" + CaptureFixture.tail(again)).isZero();
        s.reconcileFindsNoDifference(yaml);
    }

    private static long count(CaptureFixture f, String sql) throws Exception {
        try (Statement st = f.source.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }
}
