package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9 item 1: a pipeline started on an idle (empty) table and stopped before its first change must still know
 * where it was. Debezium records no offsets after an empty snapshot; without offsets the restart took a new
 * snapshot ({@code op=r}) and streamed from the current LSN, so the deletes in between never reached the topic.
 * After the fix the restart streams exactly the changes committed while it was stopped.
 */
class CaptureEmptySnapshotRestartIT {
    static final TableId T = new TableId("public", "idle_items");

    @TempDir
    Path dir;

    @Test
    void restartAfterAnEmptySnapshotStreamsTheChangesInsteadOfSnapshottingAgain() throws Exception {
        try (CaptureFixture f = new CaptureFixture("emptysnap", dir, List.of(T))) {
            f.sql("CREATE TABLE public.idle_items (id int PRIMARY KEY, note text)");
            Sidecar first = f.start(true, true);
            await("capture streams from slot " + f.slot()).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .failFast("capture failed", () -> first.failure().isPresent())
                    .until(() -> slotActive(f));
            first.close();
            assertThat(first.failure()).isEmpty();
            Map<TopicPartition, Long> endBefore = f.endOffsets();
            // the first start's snapshot ends with its sweep (a control record, op t, one per table): no row change
            assertThat(f.opsSince(Map.of())).as("nothing captured before the first change but the snapshot's sweep").containsExactly("t");

            // committed while stopped: 200 inserts, 20 updates, 30 deletes (each delete also gives a tombstone)
            f.sql("INSERT INTO idle_items SELECT g, 'n' || g FROM generate_series(1, 200) g",
                    "UPDATE idle_items SET note = 'changed' WHERE id BETWEEN 1 AND 20",
                    "DELETE FROM idle_items WHERE id BETWEEN 171 AND 200");

            Sidecar second = f.start(true, true);
            f.awaitTargetEqual(second, "id");
            second.close();

            List<String> ops = f.opsSince(endBefore);
            assertThat(ops).as("no re-snapshot after the restart").doesNotContain("r");
            assertThat(ops.stream().filter("c"::equals).count()).as("inserts streamed").isEqualTo(200);
            assertThat(ops.stream().filter("u"::equals).count()).as("updates streamed").isEqualTo(20);
            assertThat(ops.stream().filter("d"::equals).count()).as("deletes streamed").isEqualTo(30);
            assertThat(ops.stream().filter("tombstone"::equals).count()).as("tombstones streamed").isEqualTo(30);
            assertThat(ops).hasSize(280);
            assertThat(f.targetEqualsSource("id")).as(f.compareSummary("id")).isTrue();
        }
    }

    private static boolean slotActive(CaptureFixture f) throws java.sql.SQLException {
        try (var s = f.source.createStatement();
             var rs = s.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = '" + f.slot() + "'")) {
            return rs.next() && rs.getBoolean(1);
        }
    }
}
