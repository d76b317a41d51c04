package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.reconcile.ComparisonResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partitioned table in {@code source.tables} is captured as its root: one topic under the root's name, its
 * partitions' rows in it, changes made after the snapshot included (they are written to the leaf partitions).
 */
class PartitionedTableCaptureIT {
    static final TableId T = new TableId("public", "measurements");

    @TempDir
    Path dir;

    @Test
    void rangePartitionedTableStreamsChangesAfterTheSnapshot() throws Exception {
        try (CdcFixture f = new CdcFixture("part_range", dir, List.of(T))) {
            f.sql("CREATE TABLE public.measurements (id bigint, taken date, reading numeric(10,2), PRIMARY KEY (id, taken)) "
                            + "PARTITION BY RANGE (taken)",
                    "CREATE TABLE public.measurements_2026_01 PARTITION OF public.measurements "
                            + "FOR VALUES FROM ('2026-01-01') TO ('2026-02-01')",
                    "CREATE TABLE public.measurements_2026_02 PARTITION OF public.measurements "
                            + "FOR VALUES FROM ('2026-02-01') TO ('2026-03-01')",
                    "INSERT INTO measurements VALUES (1, '2026-01-05', 1.50), (2, '2026-02-05', 2.50)");
            Sidecar sidecar = f.startPipeline();
            f.awaitEqual(sidecar, T, "target.db", "id", "taken");

            f.sql("INSERT INTO measurements VALUES (3, '2026-01-20', 3.50), (4, '2026-02-20', 4.50)",
                    "UPDATE measurements SET reading = 9.99 WHERE id = 2",
                    "DELETE FROM measurements WHERE id = 1");
            ComparisonResult r = f.awaitEqual(sidecar, T, "target.db", "id", "taken");
            assertThat(r.sourceRows()).isEqualTo(3);
        }
    }
}
