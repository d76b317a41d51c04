package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second {@code tidemark run} of a pipeline that is already running used to retry for about 50 s on
 * {@code replication slot … is active for PID …}, print a stack trace each time and exit 3 with Debezium's dump, never
 * saying another process holds the slot. It must be refused at once (exit 3, within a few seconds) with one line
 * naming who holds it, no stack trace and no exception class name, and leave the running one alone: started from the
 * same state folder (the capture lock there names the process), and from another one (e.g. another host: the slot's
 * walsender names the server PID and the client host). Both runs go through the project's launcher, so the terminal
 * shows what a user sees.
 */
class CaptureSecondRunIT {
    static final TableId T = new TableId("public", "tickets");
    private static final Pattern TRACE = Pattern.compile("^\\tat |Exception\\b|^Caused by", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @Test
    void aSecondRunIsRefusedAtOnceNamingWhoHoldsThePipeline() throws Exception {
        try (CaptureFixture f = new CaptureFixture("second_run", dir, List.of(T))) {
            f.sql("CREATE TABLE public.tickets (id int PRIMARY KEY, note text)", "INSERT INTO tickets SELECT g, 'n' FROM generate_series(1, 20) g");
            Path yaml = f.writeYaml();
            Path firstLog = dir.resolve("first.log");
            Process first = f.spawnLauncher(firstLog, "run", "--config", yaml.toString());
            try {
                await("the first run streams").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                        .failFast("the first run exited", () -> !first.isAlive())
                        .until(() -> f.targetEqualsSource("id") && Files.exists(f.offsetsFile()) && slotActive(f));
            } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
                throw new AssertionError(e.getMessage() + "; its log:\n" + CaptureFixture.tail(firstLog), e);
            }

            Path sameLog = dir.resolve("same-folder.log");
            long t0 = System.nanoTime();
            int same = f.awaitExit(f.spawnLauncher(sameLog, "run", "--config", yaml.toString()), sameLog, Duration.ofSeconds(20),
                    () -> "a second run from the same state folder kept trying");
            long sameMillis = (System.nanoTime() - t0) / 1_000_000;
            String sameOut = Files.readString(sameLog);
            assertThat(same).as("exit code; output:%n%s", sameOut).isEqualTo(3);
            assertThat(CaptureFixture.errorLines(sameLog)).as("the one line; output:%n%s", sameOut).singleElement().asString()
                    .matches("tidemark: pipeline " + f.name + " is already running \\(PID \\d+ on host \\S+ holds "
                            + Pattern.quote(dir.resolve("state").resolve(f.name + ".capture.lock").toString()) + "\\); nothing was changed: "
                            + "stop that process before starting this one");
            assertThat(TRACE.matcher(sameOut).find()).as("no stack trace or exception name in:%n%s", sameOut).isFalse();
            System.out.println("refused after " + sameMillis + " ms: " + CaptureFixture.errorLines(sameLog).get(0));

            Path other = Files.writeString(dir.resolve("other-folder.yaml"), Files.readString(yaml).replace("stateDir: state", "stateDir: state-other"));
            Path otherLog = dir.resolve("other-folder.log");
            int otherCode = f.awaitExit(f.spawnLauncher(otherLog, "run", "--config", other.toString()), otherLog, Duration.ofSeconds(20),
                    () -> "a second run from another state folder kept trying");
            String otherOut = Files.readString(otherLog);
            assertThat(otherCode).as("exit code; output:%n%s", otherOut).isEqualTo(3);
            assertThat(CaptureFixture.errorLines(otherLog)).as("the one line; output:%n%s", otherOut).singleElement().asString()
                    .matches("tidemark: pipeline " + f.name + " is already running \\(slot \"" + f.slot()
                            + "\" held by PID \\d+ from host \\S+\\); nothing was changed: stop that process before starting this one");
            assertThat(TRACE.matcher(otherOut).find()).as("no stack trace or exception name in:%n%s", otherOut).isFalse();
            assertThat(dir.resolve("state-other")).as("nothing created for the refused run").doesNotExist();

            assertThat(first.isAlive()).as("the first run still runs; its log:%n%s", CaptureFixture.tail(firstLog)).isTrue();
            f.sql("INSERT INTO tickets VALUES (21, 'after')");
            await("the first run still captures").atMost(Duration.ofSeconds(60)).until(() -> f.targetEqualsSource("id"));
        }
    }

    private static boolean slotActive(CaptureFixture f) throws Exception {
        try (Statement s = f.source.createStatement();
             ResultSet rs = s.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = '" + f.slot() + "'")) {
            return rs.next() && rs.getBoolean(1);
        }
    }
}
