package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.watermark.Cursor;
import dev.tidemark.connector.watermark.RunHistory;
import dev.tidemark.connector.watermark.RunResult;
import dev.tidemark.connector.watermark.WatermarkJob;
import dev.tidemark.connector.watermark.WatermarkPoller;
import dev.tidemark.connector.watermark.WatermarkTable;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every run is recorded (window, rows, duration); a sudden zero after runs that copied rows, and a spike over 10× the
 * recent median, raise warnings — the earliest signs that the cursor column stopped being maintained (or was
 * rewritten in bulk).
 */
class WatermarkRunHistoryIT {
    @TempDir
    Path dir;

    @Test
    void suddenZeroAndSpikeAreFlagged() throws Exception {
        Path source = dir.resolve("app.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, body TEXT)");
            s.execute("CREATE INDEX ix_events_seq ON events (seq)");
            WatermarkTable t = WatermarkTable.of(new TableId("main", "events"), List.of("id"), new Cursor.Id("seq"));
            try (WatermarkJob job = WatermarkJobs.direct("jdbc:sqlite:" + source, null, null, dir.resolve("replica.db"), t)) {
                int next = 1;
                for (int run = 0; run < 4; run++) {
                    for (int i = 0; i < 10; i++, next++) {
                        s.execute("INSERT INTO events VALUES (" + next + ", " + next + ", 'e')");
                    }
                    RunResult r = job.run(t, WatermarkPoller.Request.incremental());
                    assertThat(r.rows()).isEqualTo(10);
                    assertThat(r.warnings()).noneSatisfy(w -> assertThat(w).contains("copied"));
                }
                RunResult quiet = job.run(t, WatermarkPoller.Request.incremental());
                assertThat(quiet.rows()).isZero();
                assertThat(quiet.warnings()).anySatisfy(w -> assertThat(w).contains("copied 0 rows after 3 runs that copied [10, 10, 10]"));

                for (int i = 0; i < 101; i++, next++) {
                    s.execute("INSERT INTO events VALUES (" + next + ", " + next + ", 'bulk')");
                }
                RunResult spike = job.run(t, WatermarkPoller.Request.incremental());
                assertThat(spike.rows()).isEqualTo(101);
                assertThat(spike.warnings()).anySatisfy(w -> assertThat(w).contains("101 rows, over 10× the recent median of 10"));

                List<RunHistory.Run> runs = job.history().runs(t.name());
                assertThat(runs).extracting(RunHistory.Run::rowsCopied).containsExactly(10L, 10L, 10L, 10L, 0L, 101L);
                assertThat(runs).extracting(RunHistory.Run::mode).containsExactly("initial", "incremental", "incremental",
                        "incremental", "incremental", "incremental");
                assertThat(runs.get(5).windowStart()).isEqualTo("00000000000000000040");
                assertThat(runs.get(5).windowEnd()).isEqualTo("00000000000000000141");
                assertThat(runs.get(5).warnings()).contains("10×");
                assertThat(runs).allSatisfy(r -> assertThat(r.durationMs()).isNotNegative());
            }
        }
    }
}
