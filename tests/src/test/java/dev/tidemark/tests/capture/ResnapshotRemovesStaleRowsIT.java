package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.debezium.CaptureChoice;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery in one command: after a gap (here the slot advanced past changes made while capture was stopped),
 * {@code --resnapshot} alone must leave the target equal to the source. It took a new snapshot but kept every target
 * row the source had deleted in the gap, so a {@code tidemark reconcile --repair --apply} had to follow.
 */
class ResnapshotRemovesStaleRowsIT {
    static final TableId T = new TableId("public", "resnap_items");

    @TempDir
    Path dir;

    @Test
    void aResnapshotRemovesTargetRowsTheNewSnapshotNoLongerHolds() throws Exception {
        try (CaptureFixture f = new CaptureFixture("resnap", dir, List.of(T))) {
            f.sql("CREATE TABLE public.resnap_items (id int PRIMARY KEY, amount int)",
                    "INSERT INTO public.resnap_items SELECT g, g FROM generate_series(1, 100) g");
            try (Sidecar first = f.start(f.config())) {
                f.awaitTargetEqual(first, "id");
            }
            f.sql("DELETE FROM public.resnap_items WHERE id BETWEEN 51 AND 100",
                    "UPDATE public.resnap_items SET amount = -amount WHERE id <= 50",
                    "INSERT INTO public.resnap_items SELECT g, g FROM generate_series(101, 150) g");
            try (PreparedStatement ps = f.source.prepareStatement("SELECT pg_replication_slot_advance(?, pg_current_wal_lsn())")) {
                ps.setString(1, f.slot());
                ps.execute();
            }
            try (Sidecar again = Sidecar.start(f.config(), true, true, new ReplayFrom.Stored(), CaptureChoice.RESNAPSHOT, null)) {
                try {
                    f.awaitTargetEqual(again, "id");
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    throw new AssertionError("after --resnapshot: " + f.compareSummary("id"), e);
                }
                assertThat(again.failure()).isEmpty();
            }
        }
    }
}
