package dev.tidemark.tests.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.compare.Cause;
import dev.tidemark.compare.CompareResult;
import dev.tidemark.compare.CompareRun;
import dev.tidemark.compare.Difference;
import dev.tidemark.compare.InvoicesScenario;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in scenario end to end on real PostgreSQL and Kafka: the recipe's three runs through CDC and through the
 * watermark, with the exact figures the issue states.
 */
class CompareInvoicesIT {
    @TempDir
    Path dir;

    @Test
    void cdcEqualsTheSource_watermarkMissesTheBackdatedInvoiceAndKeepsTheDeletedOneWhileTheCountsMatch() throws Exception {
        CompareResult r = CompareFixture.run(new InvoicesScenario(), dir, "cmp_invoices");

        assertThat(r.runs()).extracting(CompareResult.Run::rowsCopied).as("rows copied per run").containsExactly(412L, 0L, 3L);
        assertThat(r.runs()).extracting(CompareResult.Run::mode).containsExactly("initial", "unchanged", "incremental");
        assertThat(r.runs()).extracting(CompareResult.Run::window).containsExactly(
                "(-∞, 2013-12-22T00:00]", "(2013-12-22T00:00, 2013-12-22T00:00]", "(2013-12-22T00:00, 2014-01-06T00:00]");
        assertThat(r.runs()).extracting(CompareResult.Run::cdcEvents)
                .as("snapshot 412; nothing; 413, 414, update of 10, delete of 20 + its tombstone, 415")
                .containsExactly(412L, 0L, 6L);
        assertThat(r.runs().get(2).changes()).hasSize(5);

        assertThat(r.cdc().sourceRows()).isEqualTo(414);
        assertThat(r.cdc().targetRows()).isEqualTo(414);
        assertThat(r.cdc().equal()).as("CDC target: %s", r.cdc()).isTrue();
        assertThat(r.cdcEqual()).isTrue();

        CompareResult.Target wm = r.watermark();
        assertThat(wm.sourceRows()).isEqualTo(414);
        assertThat(wm.targetRows()).as("the counts match...").isEqualTo(414);
        assertThat(wm.missing()).as("...while the backdated invoice is missing")
                .extracting(Difference::key, Difference::cause).containsExactly(org.assertj.core.groups.Tuple.tuple("415", Cause.BACKDATED_OR_LATE_ROW));
        assertThat(wm.surplus()).as("...and the deleted invoice is still there")
                .extracting(Difference::key, Difference::cause).containsExactly(org.assertj.core.groups.Tuple.tuple("20", Cause.DELETE));
        assertThat(wm.changed()).as("the correction of 10 stamped LastModified: run 3 copied it").isEmpty();
        assertThat(r.unexplained()).isEmpty();
        assertThat(r.warnings()).isEmpty();

        assertThat(total(dir.resolve(CompareRun.CDC_FILE), 10)).isEqualByComparingTo("99.00");
        assertThat(total(dir.resolve(CompareRun.WATERMARK_FILE), 10)).isEqualByComparingTo("99.00");
    }

    private static BigDecimal total(Path file, long id) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT \"Total\" FROM \"Invoice\" WHERE \"InvoiceId\" = " + id)) {
            assertThat(rs.next()).as("invoice %d in %s", id, file.getFileName()).isTrue();
            return new BigDecimal(rs.getString(1));
        }
    }
}
