package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9 item 5: dropping the replication slot while {@code tidemark run} captures. It used to end in a 20-line
 * stack trace ({@code Engine has been already shut down.}), and afterwards {@code tidemark status} said the slot was
 * "not created yet" with exit 0. Now capture stops with one line naming the slot and the ways on (exit 3),
 * {@code status} reports the missing slot as a problem (exit 3), a restart refuses, and {@code --resnapshot}
 * recovers.
 */
class CaptureSlotDroppedIT {
    static final TableId T = new TableId("public", "parcels");

    @TempDir
    Path dir;

    @Test
    void aSlotDroppedWhileCapturingStopsWithOneLineAndStatusReportsIt() throws Exception {
        try (CaptureFixture f = new CaptureFixture("slot_dropped", dir, List.of(T))) {
            f.sql("CREATE TABLE public.parcels (id int PRIMARY KEY, status text)",
                    "INSERT INTO parcels SELECT g, 'new' FROM generate_series(1, 100) g");
            Path yaml = f.writeYaml();
            Path running = dir.resolve("running.log");
            Process p = f.spawn(running, "run", "--config", yaml.toString());
            await("tidemark run applied the snapshot").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark run exited early", () -> !p.isAlive())
                    .until(() -> f.targetEqualsSource("id") && Files.exists(f.offsetsFile()));

            await("slot " + f.slot() + " dropped").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> dropSlot(f));
            f.sql("UPDATE parcels SET status = 'sent' WHERE id <= 10");

            int code = f.awaitExit(p, running, Duration.ofSeconds(60), () -> "capture kept running without its slot");
            String output = Files.readString(running);
            assertThat(code).as("exit code after the slot was dropped; log:\n" + output).isEqualTo(3);
            List<String> errors = CaptureFixture.errorLines(running);
            assertThat(errors).as("one error line; log:\n" + output).hasSize(1);
            System.out.println("stopped with exit " + code + ": " + errors.get(0));
        assertThat(errors.get(0)).contains("\"" + f.slot() + "\"", "dropped", f.offsetsFile().toString(), "--resnapshot", "--accept-gap");
            assertThat(output).doesNotContain("Engine has been already shut down");
            // Debezium logs its own errors while it retries; Tidemark's line comes after them, with nothing alarming after it
            List<String> lines = Files.readAllLines(running);
            List<String> after = lines.subList(lines.indexOf(errors.get(0)) + 1, lines.size());
            assertThat(after).as("lines after the error line").noneMatch(l -> l.contains(" ERROR ") || l.startsWith("\tat "));

            Path status = dir.resolve("status.log");
            int statusCode = f.runToEnd(status, "status", "--config", yaml.toString());
            String statusOut = Files.readString(status);
            assertThat(statusCode).as("status exit code; output:\n" + statusOut).isEqualTo(3);
            System.out.println("tidemark status exit " + statusCode + ":\n" + statusOut);
            assertThat(statusOut).doesNotContain("not created yet").contains("problem: replication slot \"" + f.slot() + "\" does not exist");

            Path refused = dir.resolve("refused.log");
            int refusedCode = f.awaitExit(f.spawn(refused, "run", "--config", yaml.toString()), refused, Duration.ofSeconds(45),
                    () -> "it started again without its slot");
            CaptureOffsetsFileDamagedIT.assertRefused(f, refused, refusedCode, "does not exist");

            Path resnapshot = dir.resolve("resnapshot.log");
            Process again = f.spawn(resnapshot, "run", "--config", yaml.toString(), "--resnapshot");
            await("--resnapshot brought the target level with the source").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250)).failFast("tidemark run --resnapshot exited", () -> !again.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
            again.destroy();
            assertThat(again.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(again.exitValue()).as("--resnapshot exit code; log:\n" + CaptureFixture.tail(resnapshot)).isZero();
        }
    }

    /** Ends the walsender holding the slot and drops the slot before capture reconnects; false to try again. */
    private static boolean dropSlot(CaptureFixture f) {
        try (PreparedStatement end = f.source.prepareStatement(
                "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = ? AND active_pid IS NOT NULL");
             PreparedStatement drop = f.source.prepareStatement("SELECT pg_drop_replication_slot(?)")) {
            end.setString(1, f.slot());
            end.execute();
            drop.setString(1, f.slot());
            drop.execute();
            return true;
        } catch (SQLException e) {
            return false; // still active (capture reconnected first): try again
        }
    }
}
