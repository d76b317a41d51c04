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

/** The safety probes on a PostgreSQL source: each finding is printed with its fix, and a fixed table is quiet. */
class WatermarkProbesIT {
    final TestInfrastructure.PgServer pg = TestInfrastructure.postgres();

    @TempDir
    Path dir;

    @Test
    void missingIndexNullCursorsAndAForeignTimeZoneAreReportedWithTheirFix() throws Exception {
        String db = TestInfrastructure.newDatabase("wm_probes");
        try (Connection src = pg.connect(db); Statement s = src.createStatement()) {
            s.execute("CREATE TABLE public.\"Orders\" (id bigint PRIMARY KEY, modified timestamp(6), note text)");
            s.execute("INSERT INTO public.\"Orders\" SELECT g, timestamp '2024-01-01' + g * interval '1 minute', 'n' FROM generate_series(1, 2000) g");
            s.execute("INSERT INTO public.\"Orders\" VALUES (2001, NULL, 'never stamped'), (2002, NULL, 'never stamped'), (2003, NULL, 'x')");
            // a writer that stamps wall-clock time three hours east of the session's zone
            s.execute("INSERT INTO public.\"Orders\" VALUES (2004, LOCALTIMESTAMP + interval '3 hours', 'from the east')");
            s.execute("ANALYZE public.\"Orders\"");
            WatermarkTable t = WatermarkTable.of(new TableId("public", "Orders"), List.of("id"), new Cursor.Timestamp("modified"))
                    .withSettle(Duration.ZERO);
            try (WatermarkJob job = WatermarkJobs.direct(pg.jdbcUrl(db), pg.user(), pg.password(), dir.resolve("t.db"), t)) {
                RunResult r = job.run(t, WatermarkPoller.Request.incremental());
                assertThat(r.rows()).isEqualTo(2001);
                assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("[index]")
                        .contains("EXPLAIN SELECT MAX(\"modified\") FROM \"public\".\"Orders\" shows: ").contains("Seq Scan on \"Orders\"")
                        .contains("fix: CREATE INDEX \"ix_orders_modified\" ON \"public\".\"Orders\" (\"modified\")"));
                assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("[nulls]").contains("3 rows have a NULL cursor modified")
                        .contains("fix: UPDATE \"public\".\"Orders\" SET \"modified\" = CURRENT_TIMESTAMP WHERE \"modified\" IS NULL"));
                assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("[time zone]").contains("ahead of the session clock in time zone")
                        .contains("TimeZone"));

                s.execute("CREATE INDEX ix_orders_modified ON public.\"Orders\" (modified)");
                s.execute("UPDATE public.\"Orders\" SET modified = timestamp '2024-01-02' WHERE modified IS NULL OR id = 2004");
                RunResult again = job.run(t, WatermarkPoller.Request.incremental().withProbes());
                assertThat(again.warnings()).as("fixed: the probes are quiet").noneSatisfy(w -> assertThat(w).containsAnyOf("[index]", "[nulls]", "[time zone]"));
            }
        }
    }
}
