package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.reconcile.ComparisonResult;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9 item 11: a transaction that is open while the initial snapshot is taken and commits while the snapshot
 * runs. The snapshot cannot see its changes, so they arrive through the stream afterwards; some of them were written
 * before the snapshot's LSN (the replication slot's consistent point). The target must still end equal to the source
 * by key and checksum.
 *
 * <p>How such a transaction comes about: PostgreSQL builds a new slot's snapshot in steps. It waits for the
 * transactions running when it started ({@code t0}), then for those running when it had a full snapshot ({@code t1});
 * a transaction that starts in between ({@code t2}) is not waited for: it is decoded in full, commits after the
 * consistent point, and wrote its first changes before it. The test drives those steps by watching the slot
 * creation's lock waits. It also prints the {@code source} blocks Debezium 3.6.1 emitted for a snapshot row and for
 * {@code t2}'s early update.
 */
class SnapshotInFlightTransactionIT {
    static final TableId T = new TableId("public", "snap_items");
    static final int ROWS = 40_000;

    @TempDir
    Path dir;

    @Test
    void transactionCommittedDuringTheSnapshotReachesTheTarget() throws Exception {
        try (CdcFixture f = new CdcFixture("snapinflight", dir, List.of(T))) {
            f.sql("CREATE TABLE public.snap_items (id int PRIMARY KEY, label text NOT NULL, n bigint NOT NULL)",
                    "ALTER TABLE public.snap_items REPLICA IDENTITY FULL",
                    "CREATE TABLE public.side (id int PRIMARY KEY)",
                    "INSERT INTO snap_items SELECT g, 'row ' || g, g FROM generate_series(1, " + ROWS + ") g");
            String topic = f.config(f.name, "target.db").topicFor(T);
            try (Connection t0 = f.pg.connect(f.database); Connection t1 = f.pg.connect(f.database);
                 Connection t2 = f.pg.connect(f.database)) {
                long xid0 = begin(t0, "INSERT INTO side VALUES (0)");
                Sidecar sidecar = f.startPipeline();
                awaitSlotWaitingFor(f, sidecar, xid0);
                long xid1 = begin(t1, "INSERT INTO side VALUES (1)");
                t0.commit();
                awaitSlotWaitingFor(f, sidecar, xid1); // the slot has a full snapshot and waits for t1 only
                // t2 starts now: not waited for, decoded in full, invisible to the exported snapshot
                begin(t2, "UPDATE snap_items SET label = 'in flight', n = n + 1000000 WHERE id <= 2000");
                exec(t2, "DELETE FROM snap_items WHERE id BETWEEN 2001 AND 4000");
                exec(t2, "INSERT INTO snap_items SELECT g, 'new ' || g, g FROM generate_series(" + (ROWS + 1) + ", "
                        + (ROWS + 2000) + ") g");
                t1.commit(); // consistent point: t2's changes so far lie before it
                await("snapshot of " + T + " started (first rows in the target)")
                        .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
                        .failFast("pipeline failed", () -> sidecar.failure().isPresent())
                        .until(() -> targetRows(f) > 0);
                long seenAtCommit = targetRows(f);
                // written while the snapshot runs, on rows it reads
                exec(t2, "UPDATE snap_items SET label = 'late', n = -n WHERE id BETWEEN 1001 AND 1500");
                exec(t2, "DELETE FROM snap_items WHERE id BETWEEN 30001 AND 31000");
                exec(t2, "UPDATE snap_items SET label = 'tail' WHERE id > " + (ROWS - 1000));
                t2.commit();
                System.out.println("committed the in-flight transaction with " + seenAtCommit + " of " + ROWS
                        + " snapshot rows in the target");

                ComparisonResult result = Drain.compareAfterDrain(f.source, T, f.targetUrl("target.db"), List.of("id"),
                        Duration.ofSeconds(180), () -> sidecar.failure().isPresent());
                assertThat(sidecar.failure()).as("pipeline failure").isEmpty();
                JsonNode snapshotRow = Drain.firstPayload(f.bootstrap, topic, p -> "r".equals(p.path("op").asText()));
                JsonNode early = Drain.firstPayload(f.bootstrap, topic, p -> "u".equals(p.path("op").asText())
                        && p.path("after").path("id").asInt() <= 1000);
                System.out.println("snapshot row source: " + (snapshotRow == null ? null : snapshotRow.path("source")));
                System.out.println("in-flight early update source: " + (early == null ? null : early.path("source")));
                assertThat(result).as("comparison").isNotNull();
                assertThat(result.summary()).as("target after the drain").endsWith("EQUAL").doesNotContain("DIFFERENT");
            }
        }
    }

    /** Starts a transaction on {@code c} with one statement and returns its transaction id. */
    private static long begin(Connection c, String sql) throws SQLException {
        c.setAutoCommit(false);
        exec(c, sql);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT txid_current()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** Waits until the replication slot being created waits for transaction {@code xid} to end. */
    private static void awaitSlotWaitingFor(CdcFixture f, Sidecar sidecar, long xid) {
        await("slot creation waiting for transaction " + xid)
                .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
                .failFast("pipeline failed", () -> sidecar.failure().isPresent())
                .until(() -> {
                    try (PreparedStatement ps = f.source.prepareStatement("SELECT count(*) FROM pg_locks "
                            + "WHERE locktype = 'transactionid' AND NOT granted AND transactionid::text = ?")) {
                        ps.setString(1, Long.toString(xid));
                        try (ResultSet rs = ps.executeQuery()) {
                            return rs.next() && rs.getLong(1) > 0;
                        }
                    }
                });
    }

    /** Rows the sink has written so far (0 before the target table exists). */
    private static long targetRows(CdcFixture f) {
        try (Connection t = DriverManager.getConnection(f.targetUrl("target.db"));
             Statement s = t.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM snap_items")) {
            return rs.next() ? rs.getLong(1) : 0;
        } catch (SQLException e) {
            return 0;
        }
    }
}
