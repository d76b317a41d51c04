package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9 item 2: an emptied ({@code : > NAME.offsets}) or truncated ({@code truncate -s 100}) offsets file while the
 * slot exists made Debezium take a new snapshot and stream from the current LSN: the rows deleted while capture was
 * stopped stayed in the target, and Tidemark printed nothing. Now {@code tidemark run} refuses (exit 3, one line
 * naming slot and file) and changes nothing; the ways on it names work: {@code --resnapshot} alone (it removes the
 * rows the new snapshot no longer has by itself, so the line names no repair after it; reconcile then finds no
 * difference), or {@code --accept-gap}.
 */
class CaptureOffsetsFileDamagedIT {
    static final TableId T = new TableId("public", "items");

    @TempDir
    Path dir;

    @Test
    void anEmptiedOffsetsFileIsRefusedAndResnapshotWithRepairRecovers() throws Exception {
        try (CaptureFixture f = new CaptureFixture("offsets_empty", dir, List.of(T))) {
            Path yaml = prepareStoppedPipelineWithDeletes(f);
            Files.write(f.offsetsFile(), new byte[0]); // : > state/NAME.offsets

            Path refused = dir.resolve("refused.log");
            int code = f.awaitExit(f.spawn(refused, "run", "--config", yaml.toString()), refused, Duration.ofSeconds(45),
                    () -> "it did not refuse an emptied offsets file; target vs source: " + f.compareSummary("id"));
            assertRefused(f, refused, code, "is damaged", "empty");
            assertThat(Files.size(f.offsetsFile())).as("the refusal changed nothing").isZero();
            assertThat(f.slotExists()).as("the refusal kept the slot").isTrue();

            // the way on: re-snapshot; when the new snapshot ends, the rows it no longer has are removed
            Path resnapshot = dir.resolve("resnapshot.log");
            Process p = f.spawn(resnapshot, "run", "--config", yaml.toString(), "--resnapshot");
            await("--resnapshot applied the new rows").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark run --resnapshot exited", () -> !p.isAlive())
                    .until(() -> targetHas(f, 205));
            await("--resnapshot alone removes the rows deleted while capture was stopped").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250)).failFast("tidemark run --resnapshot exited", () -> !p.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
            p.destroy();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("--resnapshot run exit code; log:\n" + CaptureFixture.tail(resnapshot)).isZero();

            Path check = dir.resolve("reconcile.log");
            int differences = f.runToEnd(check, "reconcile", "--config", yaml.toString(), "--settle", "1s");
            assertThat(differences).as("reconcile finds no difference after --resnapshot alone; log:\n" + CaptureFixture.tail(check)).isZero();
            assertThat(f.targetEqualsSource("id")).as(f.compareSummary("id")).isTrue();
        }
    }

    @Test
    void aTruncatedOffsetsFileIsRefusedAndAcceptGapStreamsFromTheSlot() throws Exception {
        try (CaptureFixture f = new CaptureFixture("offsets_torn", dir, List.of(T))) {
            Path yaml = prepareStoppedPipelineWithDeletes(f);
            try (FileChannel ch = FileChannel.open(f.offsetsFile(), StandardOpenOption.WRITE)) {
                ch.truncate(100); // truncate -s 100
            }
            byte[] torn = Files.readAllBytes(f.offsetsFile());

            Path refused = dir.resolve("refused.log");
            int code = f.awaitExit(f.spawn(refused, "run", "--config", yaml.toString()), refused, Duration.ofSeconds(45),
                    () -> "it did not refuse a truncated offsets file; target vs source: " + f.compareSummary("id"));
            assertRefused(f, refused, code, "is damaged");
            assertThat(Files.readAllBytes(f.offsetsFile())).as("the refusal changed nothing").isEqualTo(torn);

            // the other way on: stream from the slot, which still holds every change since its confirmed position
            Path gap = dir.resolve("accept-gap.log");
            Process p = f.spawn(gap, "run", "--config", yaml.toString(), "--accept-gap");
            f.sql("INSERT INTO items VALUES (1000, 'after the restart')");
            await("--accept-gap streams the changes").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark run --accept-gap exited", () -> !p.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
            p.destroy();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("--accept-gap run exit code; log:\n" + CaptureFixture.tail(gap)).isZero();
        }
    }

    /** 200 rows captured and applied, stopped; then, while stopped, 15 deletes and 5 inserts. */
    private static Path prepareStoppedPipelineWithDeletes(CaptureFixture f) throws Exception {
        f.sql("CREATE TABLE public.items (id int PRIMARY KEY, note text)",
                "INSERT INTO items SELECT g, 'n' || g FROM generate_series(1, 200) g");
        Sidecar first = f.start(true, true);
        f.awaitTargetEqual(first, "id");
        first.close();
        assertThat(Files.exists(f.offsetsFile())).as("offsets stored").isTrue();
        f.sql("DELETE FROM items WHERE id <= 15", "INSERT INTO items SELECT g, 'late ' || g FROM generate_series(201, 205) g");
        return f.writeYaml();
    }

    static void assertRefused(CaptureFixture f, Path log, int code, String... mentions) throws Exception {
        String output = Files.readString(log);
        assertThat(code).as("exit code of the refused start; log:\n" + output).isEqualTo(3);
        List<String> errors = CaptureFixture.errorLines(log);
        assertThat(errors).as("one error line; log:\n" + output).hasSize(1);
        System.out.println("refused with exit " + code + ": " + errors.get(0));
        assertThat(errors.get(0)).contains("\"" + f.slot() + "\"", f.offsetsFile().toString(), "--resnapshot", "--accept-gap")
                .doesNotContain("reconcile").contains(mentions);
        assertThat(CaptureFixture.stackTraceLines(log)).as("no stack trace").isEmpty();
    }

    private static boolean targetHas(CaptureFixture f, int id) {
        try (var c = java.sql.DriverManager.getConnection(f.targetUrl()); var s = c.createStatement();
             var rs = s.executeQuery("SELECT count(*) FROM items WHERE id = " + id)) {
            return rs.next() && rs.getInt(1) == 1;
        } catch (java.sql.SQLException e) {
            return false;
        }
    }
}
