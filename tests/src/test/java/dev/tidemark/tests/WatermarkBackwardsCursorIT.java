package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.watermark.Cursor;
import dev.tidemark.connector.watermark.RunResult;
import dev.tidemark.connector.watermark.WatermarkJob;
import dev.tidemark.connector.watermark.WatermarkPoller;
import dev.tidemark.connector.watermark.WatermarkTable;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 6: a row whose cursor moved backwards (a writer with a slow clock, or the DST fall-back hour on a
 * {@code timestamp without time zone}) is re-read by the overlap; the later run's read must replace what an earlier
 * run copied, and the run must count and report the row.
 */
class WatermarkBackwardsCursorIT {
    static final TableId ORDERS = new TableId("public", "orders");
    final TestInfrastructure.PgServer pg = TestInfrastructure.postgres();

    @TempDir
    Path dir;

    @Test
    void aLaterRunsReadWinsWhenTheCursorMovedBackwards() throws Exception {
        String db = TestInfrastructure.newDatabase("wm_backwards");
        try (Connection src = pg.connect(db); Statement s = src.createStatement()) {
            s.execute("CREATE TABLE orders (id bigint PRIMARY KEY, updated timestamp(6) NOT NULL, status text)");
            s.execute("INSERT INTO orders VALUES (1, '2026-11-01 01:40:00', 'placed'), (2, '2026-11-01 01:50:00', 'placed')");
            WatermarkTable t = WatermarkTable.of(ORDERS, List.of("id"), new Cursor.Timestamp("updated"))
                    .withSettle(Duration.ZERO).withOverlap(Duration.ofHours(1));
            Path target = dir.resolve("orders.db");
            try (WatermarkJob job = WatermarkJobs.direct(pg.jdbcUrl(db), pg.user(), pg.password(), target, t)) {
                RunResult first = job.run(t, WatermarkPoller.Request.incremental());
                assertThat(first.rows()).isEqualTo(2);

                // DST fall-back: the clock went from 01:59:59 back to 01:00; the update is stamped below 01:50
                s.execute("UPDATE orders SET updated = '2026-11-01 01:10:00', status = 'shipped' WHERE id = 2");
                RunResult second = job.run(t, WatermarkPoller.Request.incremental());

                assertThat(second.rows()).as("the overlap re-reads both rows").isEqualTo(2);
                assertThat(WatermarkJobs.text(target, "SELECT status FROM orders WHERE id = 2"))
                        .as("the second run's read of order 2 replaces the first run's").isEqualTo("shipped");
                assertThat(WatermarkJobs.text(target, "SELECT updated FROM orders WHERE id = 2")).startsWith("2026-11-01");
                assertThat(second.warnings()).as("the run reports the row whose cursor moved backwards")
                        .anySatisfy(w -> assertThat(w).contains("1 row").contains("moved backwards"));
                assertThat(second.movedBackRows()).isEqualTo(1);
                assertThat(second.lateRows()).as("a re-read of a row moved backwards is not lateness").isZero();
                assertThat(job.history().runs(t.name()).get(1).movedBackRows()).isEqualTo(1);
                assertThat(job.history().runs(t.name()).get(1).warnings()).contains("moved backwards");

                RunResult third = job.run(t, WatermarkPoller.Request.incremental());
                assertThat(third.movedBackRows()).as("the target now holds the value read").isZero();
                assertThat(WatermarkJobs.text(target, "SELECT status FROM orders WHERE id = 2")).isEqualTo("shipped");
            }
        }
    }
}
