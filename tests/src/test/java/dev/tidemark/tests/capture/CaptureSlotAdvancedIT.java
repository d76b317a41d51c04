package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9 item 4: {@code pg_replication_slot_advance} while capture is stopped moved the slot past 300 changes;
 * Debezium (offset.mismatch.strategy no_validation) streamed from the slot and those changes never arrived. Now
 * capture refuses (exit 3, one line naming the slot, the offsets file and both positions); {@code --accept-gap}
 * starts anyway, from the slot, without the changes in the gap.
 */
class CaptureSlotAdvancedIT {
    static final TableId T = new TableId("public", "ledger");

    @TempDir
    Path dir;

    @Test
    void aSlotAdvancedPastTheStoredOffsetsIsRefused() throws Exception {
        try (CaptureFixture f = new CaptureFixture("slot_advanced", dir, List.of(T))) {
            f.sql("CREATE TABLE public.ledger (id int PRIMARY KEY, amount int)",
                    "INSERT INTO ledger SELECT g, g FROM generate_series(1, 100) g");
            Sidecar first = f.start(true, true);
            f.awaitTargetEqual(first, "id");
            first.close();
            String before = f.slotConfirmedLsn();

            // 300 changes while stopped, then the slot is moved past them
            f.sql("INSERT INTO ledger SELECT g, g FROM generate_series(101, 300) g",
                    "UPDATE ledger SET amount = -amount WHERE id BETWEEN 1 AND 50",
                    "DELETE FROM ledger WHERE id BETWEEN 51 AND 100");
            try (PreparedStatement ps = f.source.prepareStatement("SELECT pg_replication_slot_advance(?, pg_current_wal_lsn())")) {
                ps.setString(1, f.slot());
                ps.execute();
            }
            String advanced = f.slotConfirmedLsn();
            assertThat(advanced).isNotEqualTo(before);
            Path yaml = f.writeYaml();

            Path refused = dir.resolve("refused.log");
            int code = f.awaitExit(f.spawn(refused, "run", "--config", yaml.toString()), refused, Duration.ofSeconds(45),
                    () -> "it started on a slot advanced from " + before + " to " + advanced + "; target vs source: " + f.compareSummary("id"));
            CaptureOffsetsFileDamagedIT.assertRefused(f, refused, code, "ahead", advanced);
            assertThat(f.slotConfirmedLsn()).as("the refusal left the slot where it was").isEqualTo(advanced);

            // the explicit way on: accept the gap; capture streams from the slot's position
            Path gap = dir.resolve("accept-gap.log");
            Process p = f.spawn(gap, "run", "--config", yaml.toString(), "--accept-gap");
            f.sql("INSERT INTO ledger VALUES (1000, 1000)");
            try {
                await("--accept-gap streams the change after the slot's position").atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(250)).failFast("tidemark run --accept-gap exited", () -> !p.isAlive())
                        .until(() -> count(f, "id = 1000") == 1);
            } catch (org.awaitility.core.TerminalFailureException | org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError(e.getMessage() + "\n--- last lines of " + gap + " ---\n" + CaptureFixture.tail(gap), e);
            }
            p.destroy();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("--accept-gap exit code; log:\n" + CaptureFixture.tail(gap)).isZero();
            assertThat(count(f, "id BETWEEN 101 AND 300")).as("the accepted gap: inserts skipped by the advanced slot").isZero();
            assertThat(Files.readString(gap)).contains("--accept-gap");
        }
    }

    private static int count(CaptureFixture f, String where) {
        try (var c = java.sql.DriverManager.getConnection(f.targetUrl()); var s = c.createStatement();
             var rs = s.executeQuery("SELECT count(*) FROM ledger WHERE " + where)) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (java.sql.SQLException e) {
            return -1;
        }
    }
}
