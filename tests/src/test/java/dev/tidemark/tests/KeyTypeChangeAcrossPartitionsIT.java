package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.reconcile.ComparisonResult;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9 items 12b and 12c, through real capture on a 3-partition topic: 300 keys are inserted and applied; then,
 * while the sink is stopped, deleted (each delete followed by its tombstone), the key column's type is widened
 * ({@code int} → {@code bigint}), and the same keys inserted again and half of them updated. The sink then consumes
 * that backlog.
 *
 * <p>Partitioning by the hash of the serialised key, schema included, put a key's events before and after the type
 * change on different partitions, so the sink could apply the new insert first; the old delete was then refused by
 * the position guard, but the tombstone after it (no position, unguarded) deleted the new row. The target must equal
 * the source by key and checksum.
 */
class KeyTypeChangeAcrossPartitionsIT {
    static final TableId T = new TableId("public", "kt_items");
    static final int KEYS = 300;

    @TempDir
    Path dir;

    @Test
    void aKeyWhoseTypeWidenedKeepsItsOrderAcrossTheChange() throws Exception {
        try (CdcFixture f = new CdcFixture("keytype", dir, List.of(T))) {
            f.sql("CREATE TABLE public.kt_items (id int PRIMARY KEY, label text NOT NULL)");
            PipelineConfig base = f.config(f.name, "target.db");
            PipelineConfig config = new PipelineConfig(base.name(), base.source(),
                    new KafkaConfig(f.bootstrap, f.name, 3, (short) 1, Map.of()), base.target(), base.stateDir());
            String topic = config.topicFor(T);

            Sidecar capture = f.start(config, true, false, new ReplayFrom.Stored());
            await("capture streaming from slot_" + f.name).atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .failFast("capture failed", () -> capture.failure().isPresent())
                    .until(() -> slotActive(f));
            f.sql("INSERT INTO kt_items SELECT g, 'first ' || g FROM generate_series(1, " + KEYS + ") g");
            Sidecar first = f.start(config, false, true, new ReplayFrom.Stored());
            ComparisonResult before = Drain.compareAfterDrain(f.source, T, f.targetUrl("target.db"), List.of("id"),
                    Duration.ofSeconds(120), () -> first.failure().isPresent());
            assertThat(before.summary()).as("first inserts applied").endsWith("EQUAL");
            first.close();

            // while the sink is stopped: a backlog with the old key type's deletes and the new key type's inserts
            f.sql("DELETE FROM kt_items",
                    "ALTER TABLE kt_items ALTER COLUMN id TYPE bigint",
                    "INSERT INTO kt_items SELECT g, 'again ' || g FROM generate_series(1, " + KEYS + ") g",
                    "UPDATE kt_items SET label = 'updated ' || id WHERE id % 2 = 0");
            long records = KEYS * 4L + KEYS / 2; // c, then d, tombstone, c, and u for half
            await("capture sent " + records + " records to " + topic)
                    .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .failFast("capture failed", () -> capture.failure().isPresent())
                    .until(() -> Drain.topicSize(f.bootstrap, topic) >= records);
            capture.close();

            Sidecar sink = f.start(config, false, true, new ReplayFrom.Stored());
            TargetDigest.awaitOffsetsAtEnd(f.bootstrap, config, sink);
            ComparisonResult result = Drain.compareAfterDrain(f.source, T, f.targetUrl("target.db"), List.of("id"),
                    Duration.ofSeconds(30), () -> sink.failure().isPresent());
            assertThat(sink.failure()).as("sink failure").isEmpty();
            assertThat(result).as("comparison").isNotNull();
            assertThat(result.summary()).as("target after the drain").endsWith("EQUAL").doesNotContain("DIFFERENT");
        }
    }

    private static boolean slotActive(CdcFixture f) throws java.sql.SQLException {
        try (java.sql.Statement s = f.source.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = 'slot_" + f.name + "'")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

}
