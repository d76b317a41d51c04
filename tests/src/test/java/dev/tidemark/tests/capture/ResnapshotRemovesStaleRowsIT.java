package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.debezium.CaptureChoice;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery in one command: after a gap (here the slot advanced past changes made while capture was stopped),
 * {@code --resnapshot} alone must leave the target equal to the source. It took a new snapshot but kept every target
 * row the source had deleted in the gap, so a {@code tidemark reconcile --repair --apply} had to follow. With
 * {@code snapshot.mode: no_data} nothing re-reads the rows, so nothing may be removed.
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

    @Test
    void aResnapshotWithSnapshotModeNoDataKeepsTheTargetRows() throws Exception {
        try (CaptureFixture f = new CaptureFixture("resnapnd", dir, List.of(T))) {
            f.sql("CREATE TABLE public.resnap_items (id int PRIMARY KEY, amount int)",
                    "INSERT INTO public.resnap_items SELECT g, g FROM generate_series(1, 100) g");
            try (Sidecar first = f.start(f.config())) {
                f.awaitTargetEqual(first, "id");
            }
            PipelineConfig c = f.config();
            SourceConfig s = c.source();
            PipelineConfig noData = new PipelineConfig(c.name(), new SourceConfig(s.jdbcUrl(), s.user(), s.password(), s.slot(),
                    s.publication(), s.tables(), s.setReplicaIdentityFull(), s.pollInterval(), s.excludeColumns(),
                    s.heartbeatInterval(), Map.of("snapshot.mode", "no_data")), c.kafka(), c.target(), c.stateDir());
            try (Sidecar again = Sidecar.start(noData, true, true, new ReplayFrom.Stored(), CaptureChoice.RESNAPSHOT, null)) {
                await("capture streams after --resnapshot with snapshot.mode no_data").atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(200)).failFast("capture failed", () -> again.failure().isPresent())
                        .until(() -> again.capture().orElseThrow().isStreaming());
                f.sql("INSERT INTO public.resnap_items VALUES (101, 101)");
                try {
                    f.awaitTargetEqual(again, "id");
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    throw new AssertionError("after --resnapshot with no_data: " + f.compareSummary("id"), e);
                }
                assertThat(again.failure()).isEmpty();
            }
        }
    }
}
