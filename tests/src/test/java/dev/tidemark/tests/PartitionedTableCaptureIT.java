package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.reconcile.ComparisonResult;
import dev.tidemark.reconcile.ReconcileRequest;
import dev.tidemark.reconcile.ReconcileResult;
import dev.tidemark.reconcile.Reconciler;
import dev.tidemark.testkit.TableComparison;
import dev.tidemark.tests.sink.TargetDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partitioned table in {@code source.tables} is captured as its root: one topic under the root's name, every
 * partition's rows in it, changes made after the snapshot included (they are written to the leaf partitions), for
 * range, list and hash partitioning and sub-partitions, with a partition created while streaming and an update that
 * moves a row to another partition. Each case on one target; the target is checked against the source by an
 * independent row comparison ({@link TableComparison}: key and checksum) and by reconcile.
 */
class PartitionedTableCaptureIT {
    @TempDir
    Path dir;

    @Test
    void rangePartitionedTableStreamsChangesAfterTheSnapshot() throws Exception {
        TableId t = new TableId("public", "measurements");
        try (TargetDatabase target = TargetDatabase.sqlite(); CdcFixture f = new CdcFixture("part_range", dir, List.of(t))) {
            f.sql("CREATE TABLE public.measurements (id bigint, taken date, reading numeric(10,2), PRIMARY KEY (id, taken)) "
                            + "PARTITION BY RANGE (taken)",
                    "CREATE TABLE public.measurements_2026_01 PARTITION OF public.measurements "
                            + "FOR VALUES FROM ('2026-01-01') TO ('2026-02-01')",
                    "CREATE TABLE public.measurements_2026_02 PARTITION OF public.measurements "
                            + "FOR VALUES FROM ('2026-02-01') TO ('2026-03-01')",
                    "INSERT INTO measurements VALUES (1, '2026-01-05', 1.50), (2, '2026-02-05', 2.50)");
            Sidecar sidecar = start(f, target);
            awaitEqual(f, target, sidecar, t, "id", "taken");

            f.sql("INSERT INTO measurements VALUES (3, '2026-01-20', 3.50), (4, '2026-02-20', 4.50)",
                    "UPDATE measurements SET reading = 9.99 WHERE id = 2",
                    "DELETE FROM measurements WHERE id = 1");
            ComparisonResult r = awaitEqual(f, target, sidecar, t, "id", "taken");
            assertThat(r.sourceRows()).isEqualTo(3);
            assertReconciled(f, target, t);
            assertThat(captureTopics(f)).containsExactly(f.name + ".public.measurements");
            java.util.Map<org.apache.kafka.common.TopicPartition, Long> start = new java.util.HashMap<>();
            KafkaTopics.endOffsets(f.bootstrap, f.name + ".public.measurements").keySet().forEach(tp -> start.put(tp, 0L));
            assertThat(KafkaTopics.opsSince(f.bootstrap, start).stream().filter("r"::equals).count())
                    .as("the snapshot read the root once: one r record per row").isEqualTo(2);
        }
    }

    @Test
    void listPartitionedTableFollowsAMoveBetweenPartitionsAndAPartitionCreatedWhileStreaming() throws Exception {
        TableId t = new TableId("public", "orders");
        try (TargetDatabase target = TargetDatabase.postgres(); CdcFixture f = new CdcFixture("part_list", dir, List.of(t))) {
            f.sql("CREATE TABLE public.orders (id int, region text, total numeric(12,2), note text, PRIMARY KEY (id, region)) "
                            + "PARTITION BY LIST (region)",
                    "CREATE TABLE public.orders_eu PARTITION OF public.orders FOR VALUES IN ('eu')",
                    "CREATE TABLE public.orders_us PARTITION OF public.orders FOR VALUES IN ('us')",
                    "CREATE TABLE public.orders_other PARTITION OF public.orders DEFAULT",
                    "INSERT INTO orders SELECT g, (ARRAY['eu', 'us', 'apac'])[1 + g % 3], g * 1.25, 'n' || g FROM generate_series(1, 30) g");
            Sidecar sidecar = start(f, target);
            awaitEqual(f, target, sidecar, t, "id", "region");

            f.sql("UPDATE orders SET region = 'us', note = 'moved' WHERE id = 3", // eu -> us: a delete and an insert
                    "INSERT INTO orders VALUES (100, 'apac', 1.00, 'default partition')");
            awaitEqual(f, target, sidecar, t, "id", "region");

            f.sql("CREATE TABLE public.orders_latam PARTITION OF public.orders FOR VALUES IN ('latam')",
                    "INSERT INTO orders VALUES (101, 'latam', 2.00, 'new partition'), (102, 'latam', 3.00, 'new partition')",
                    "UPDATE orders SET total = 20.00 WHERE id = 101",
                    "DELETE FROM orders WHERE id = 102",
                    "UPDATE orders SET region = 'latam' WHERE id = 6"); // eu -> the new partition
            ComparisonResult r = awaitEqual(f, target, sidecar, t, "id", "region");
            assertThat(r.sourceRows()).isEqualTo(32);
            assertReconciled(f, target, t);
            assertThat(captureTopics(f)).containsExactly(f.name + ".public.orders");
        }
    }

    @Test
    void hashPartitionedTableWithSubPartitionsStreamsEveryLevel() throws Exception {
        TableId t = new TableId("public", "events");
        try (TargetDatabase target = TargetDatabase.mariadb(); CdcFixture f = new CdcFixture("part_hash", dir, List.of(t))) {
            f.sql("CREATE TABLE public.events (id bigint, day date, payload text, PRIMARY KEY (id, day)) PARTITION BY HASH (id)",
                    "CREATE TABLE public.events_h0 PARTITION OF public.events FOR VALUES WITH (MODULUS 2, REMAINDER 0) "
                            + "PARTITION BY RANGE (day)",
                    "CREATE TABLE public.events_h0_2026 PARTITION OF public.events_h0 FOR VALUES FROM ('2026-01-01') TO ('2027-01-01')",
                    "CREATE TABLE public.events_h0_rest PARTITION OF public.events_h0 DEFAULT",
                    "CREATE TABLE public.events_h1 PARTITION OF public.events FOR VALUES WITH (MODULUS 2, REMAINDER 1)",
                    "INSERT INTO events SELECT g, date '2025-12-25' + g, 'p' || g FROM generate_series(1, 40) g");
            Sidecar sidecar = start(f, target);
            awaitEqual(f, target, sidecar, t, "id", "day");

            f.sql("INSERT INTO events SELECT g, date '2025-12-01' + g, 'q' || g FROM generate_series(41, 60) g",
                    "UPDATE events SET payload = 'changed' WHERE id % 5 = 0",
                    "UPDATE events SET day = date '2026-06-01' WHERE id = 2", // sub-partition rest -> 2026
                    "DELETE FROM events WHERE id % 7 = 0");
            ComparisonResult r = awaitEqual(f, target, sidecar, t, "id", "day");
            assertThat(r.sourceRows()).isEqualTo(60 - 8);
            assertReconciled(f, target, t);
            assertThat(identities(f, "events%")).as("every member of the tree has REPLICA IDENTITY FULL").containsOnly("f");
            assertThat(captureTopics(f)).containsExactly(f.name + ".public.events");
        }
    }

    static Sidecar start(CdcFixture f, TargetDatabase target) {
        return f.start(f.configFor(f.name, target.jdbcUrl(), target.properties().getProperty("user")), true, true,
                new dev.tidemark.sink.kafka.ReplayFrom.Stored());
    }

    /** Waits until the target table equals the source table by key and checksum; returns the last comparison. */
    static ComparisonResult awaitEqual(CdcFixture f, TargetDatabase target, Sidecar sidecar, TableId t, String... keys) {
        AtomicReference<ComparisonResult> last = new AtomicReference<>();
        await("target " + target.name() + " table " + t.table() + " equal to the source by key and checksum")
                .atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .failFast("pipeline failed", () -> sidecar.failure().isPresent())
                .until(() -> {
                    try (Connection c = target.connect()) {
                        last.set(TableComparison.compare(f.source, t, List.of(keys), c, t.table(), target.quotes()));
                        return last.get().equal();
                    } catch (Exception e) {
                        return false; // the target table is not there yet
                    }
                });
        return last.get();
    }

    /** Reconcile (Tidemark's own segment checksums and row merge) finds no difference between source and target. */
    static void assertReconciled(CdcFixture f, TargetDatabase target, TableId t) throws Exception {
        Properties p = new Properties();
        p.setProperty("user", f.pg.user());
        p.setProperty("password", f.pg.password());
        ReconcileResult r = Reconciler.reconcile(ReconcileRequest.of(ReconcileRequest.Endpoint.of(f.pg.jdbcUrl(f.database), p), t,
                ReconcileRequest.Endpoint.of(target.jdbcUrl(), target.properties()), t.table()).withSettle(Duration.ZERO));
        assertThat(r.missing()).as("missing").isEmpty();
        assertThat(r.surplus()).as("surplus").isEmpty();
        assertThat(r.changed()).as("changed").isEmpty();
        assertThat(r.sourceRows()).isEqualTo(r.targetRows());
    }

    /** The data topics with the pipeline's prefix (not capture's history topic): the root's only, none per partition. */
    static Set<String> captureTopics(CdcFixture f) throws Exception {
        try (Admin admin = Admin.create(java.util.Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, f.bootstrap))) {
            return admin.listTopics().names().get().stream().filter(n -> n.startsWith(f.name + "."))
                    .filter(n -> !n.equals(f.name + ".__tidemark_history")).collect(java.util.stream.Collectors.toSet());
        }
    }

    /** The replica identity of every source table whose name is LIKE {@code pattern}. */
    static List<String> identities(CdcFixture f, String pattern) throws Exception {
        try (Statement s = f.source.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT relreplident FROM pg_class WHERE relname LIKE '" + pattern + "' AND relkind IN ('r', 'p')")) {
            List<String> out = new java.util.ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }
}
