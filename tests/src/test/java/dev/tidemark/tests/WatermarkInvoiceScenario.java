package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.compare.InvoiceRow;
import dev.tidemark.compare.InvoicesScenario;
import dev.tidemark.compare.ScenarioStep;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.watermark.Cursor;
import dev.tidemark.connector.watermark.RunResult;
import dev.tidemark.connector.watermark.WatermarkConfig;
import dev.tidemark.connector.watermark.WatermarkJob;
import dev.tidemark.connector.watermark.WatermarkPoller;
import dev.tidemark.connector.watermark.WatermarkTable;
import dev.tidemark.event.TableId;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import dev.tidemark.tests.sink.TargetDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recipe's own demonstration (Azure Data Factory's incremental copy), on a generated copy of the Chinook
 * {@code Invoice} table shape: 412 invoices dated evenly from 2009-01-01 to 2013-12-22, {@code LastModified =
 * InvoiceDate}. Run 1 copies 412, run 2 copies 0; then two new invoices (413, 414 on 2014-01-05), a correction of
 * invoice 10 (Total 99.00, LastModified 2014-01-06), the deletion of invoice 20 and invoice 415 inserted late with
 * LastModified 2013-06-01; run 3 copies 3. Plain watermark mode then leaves 415 missing and 20 surplus while the
 * counts agree (414 = 414) — counts prove nothing; an overlap wider than the lateness catches 415 (and reports the
 * lateness it observed); soft deletes carry the deletion.
 *
 * <p>Written once, bound to each source database by a subclass.
 */
abstract class WatermarkInvoiceScenario {
    /** The rows and the changes come from the same generator {@code tidemark compare} and the demo use. */
    static final InvoicesScenario RECIPE = new InvoicesScenario();

    @TempDir
    Path dir;

    /** A JDBC URL of an empty source database of this kind. */
    abstract String sourceUrl() throws Exception;

    abstract String sourceUser();

    abstract String sourcePassword();

    /** The table as the source names it, e.g. {@code main.Invoice}. */
    abstract TableId table(String name);

    /** CREATE TABLE for the Invoice shape (+ an IsDeleted flag when {@code softDelete}). */
    abstract String ddl(String name, boolean softDelete);

    /** Binds a date-time the way this source stores it (text on SQLite, native elsewhere). */
    abstract void bindTimestamp(PreparedStatement ps, int index, LocalDateTime t) throws SQLException;

    /** Quotes an identifier for this source. */
    abstract String q(String identifier);

    void dropSource() throws Exception {
    }

    private final Map<String, TargetDatabase> targets = new java.util.HashMap<>();

    /** A fresh target of the kind this binding writes to; SQLite files unless a subclass says otherwise. */
    TargetDatabase newTarget() throws Exception {
        return TargetDatabase.sqlite();
    }

    TargetDatabase target(String name) throws Exception {
        TargetDatabase t = targets.get(name);
        if (t == null) {
            t = newTarget();
            targets.put(name, t);
        }
        return t;
    }

    @AfterEach
    void dropTargets() throws Exception {
        for (TargetDatabase t : targets.values()) {
            t.close();
        }
    }

    @Test
    void plainModeMissesTheLateRowAndTheDeleteWhileCountsMatch_overlapAndSoftDeletesCatchThem() throws Exception {
        String url = sourceUrl();
        try (Connection src = DriverManager.getConnection(url, sourceUser(), sourcePassword())) {
            createAndFill(src, "Invoice", false);
            createAndFill(src, "InvoiceSoft", true);

            WatermarkTable plain = WatermarkTable.of(table("Invoice"), List.of("InvoiceId"), new Cursor.Timestamp("LastModified"))
                    .withChunkSize(100);
            WatermarkTable overlapped = plain.withOverlap(Duration.ofDays(365));
            WatermarkTable soft = WatermarkTable.of(table("InvoiceSoft"), List.of("InvoiceId"), new Cursor.Timestamp("LastModified"))
                    .withOverlap(Duration.ofDays(365)).withSoftDelete("IsDeleted");

            try (WatermarkJob a = job(url, "plain.db", plain); WatermarkJob b = job(url, "overlap.db", overlapped);
                 WatermarkJob c = job(url, "soft.db", soft)) {
                RunResult a1 = a.run(plain, WatermarkPoller.Request.incremental());
                RunResult b1 = b.run(overlapped, WatermarkPoller.Request.incremental());
                RunResult c1 = c.run(soft, WatermarkPoller.Request.incremental());
                assertThat(List.of(a1.rows(), b1.rows(), c1.rows())).containsOnly(412L);
                assertThat(a1.mode()).isEqualTo("initial");
                assertThat(a1.chunks()).isEqualTo(5); // 100 + 100 + 100 + 100 + 12
                assertThat(a1.watermark().primary().render()).startsWith("2013-12-22T00:00:00.000000000");

                RunResult a2 = a.run(plain, WatermarkPoller.Request.incremental());
                assertThat(a2.rows()).isZero();
                assertThat(a2.mode()).isEqualTo("unchanged");
                RunResult b2 = b.run(overlapped, WatermarkPoller.Request.incremental());
                assertThat(b2.lateRows()).as("re-reading the overlap finds only rows copied before").isZero();
                c.run(soft, WatermarkPoller.Request.incremental());

                changeSource(src, "Invoice", false);
                changeSource(src, "InvoiceSoft", true);

                RunResult a3 = a.run(plain, WatermarkPoller.Request.incremental());
                assertThat(a3.rows()).as("413, 414 and the corrected 10").isEqualTo(3);
                Diff plainDiff = diff(src, "Invoice", "plain.db", false);
                assertThat(plainDiff.sourceRows).isEqualTo(414);
                assertThat(plainDiff.targetRows).as("the counts agree...").isEqualTo(414);
                assertThat(plainDiff.missing).as("...while the late invoice is missing").containsExactly(415L);
                assertThat(plainDiff.surplus).as("...and the deleted invoice is still there").containsExactly(20L);
                assertThat(plainDiff.changed).isEmpty();
                assertThat(total("plain.db", 10)).isEqualByComparingTo("99.00");

                RunResult b3 = b.run(overlapped, WatermarkPoller.Request.incremental());
                assertThat(b3.lateRows()).as("415 was first seen below the previous watermark").isEqualTo(1);
                assertThat(b3.maxLateness()).as("2013-12-22 minus 2013-06-01").isEqualTo("204d");
                assertThat(b3.warnings()).anySatisfy(w -> assertThat(w).contains("observed lateness").contains("204d"));
                Diff overlapDiff = diff(src, "Invoice", "overlap.db", false);
                assertThat(overlapDiff.missing).as("an overlap wider than the lateness catches 415").isEmpty();
                assertThat(overlapDiff.surplus).as("a hard delete leaves no row to read").containsExactly(20L);
                assertThat(overlapDiff.changed).isEmpty();

                RunResult c3 = c.run(soft, WatermarkPoller.Request.incremental());
                assertThat(c3.deletes()).isEqualTo(1);
                Diff softDiff = diff(src, "InvoiceSoft", "soft.db", true);
                assertThat(softDiff.surplus).as("the soft delete carried the deletion of 20").isEmpty();
                assertThat(softDiff.missing).isEmpty();
                assertThat(softDiff.changed).isEmpty();
                assertThat(softDiff.targetRows).isEqualTo(414);

                assertThat(a.history().runs(plain.name())).extracting(r -> r.rowsCopied()).containsExactly(412L, 0L, 3L);
            }
        } finally {
            dropSource();
        }
    }

    WatermarkJob job(String url, String targetName, WatermarkTable table) throws Exception {
        TargetDatabase target = target(targetName);
        WatermarkConfig cfg = new WatermarkConfig("invoices",
                new WatermarkConfig.Endpoint(url, sourceUser(), Secret.of(sourcePassword())),
                new WatermarkConfig.Endpoint(target.jdbcUrl(), target.properties().getProperty("user"),
                        Secret.of(target.properties().getProperty("password"))), null, null, List.of(table), null);
        return WatermarkJob.open(cfg, null);
    }

    void createAndFill(Connection src, String name, boolean softDelete) throws SQLException {
        try (Statement s = src.createStatement()) {
            s.execute(ddl(name, softDelete));
        }
        String sql = "INSERT INTO " + q(name) + " (" + columns(softDelete) + ") VALUES (?, ?, ?, ?, ?, ?, ?" + (softDelete ? ", false" : "") + ")";
        boolean auto = src.getAutoCommit();
        src.setAutoCommit(false);
        try (PreparedStatement ps = src.prepareStatement(sql)) {
            for (InvoiceRow r : RECIPE.initialRows()) {
                insert(ps, r);
            }
            ps.executeBatch();
        }
        src.commit();
        src.setAutoCommit(auto);
    }

    String columns(boolean softDelete) {
        List<String> cols = new ArrayList<>(List.of("InvoiceId", "CustomerId", "InvoiceDate", "BillingCity", "BillingCountry", "Total", "LastModified"));
        if (softDelete) {
            cols.add("IsDeleted");
        }
        return String.join(", ", cols.stream().map(this::q).toList());
    }

    private void insert(PreparedStatement ps, InvoiceRow r) throws SQLException {
        ps.setLong(1, r.invoiceId());
        ps.setLong(2, r.customerId());
        bindTimestamp(ps, 3, r.invoiceDate());
        ps.setString(4, r.billingCity());
        ps.setString(5, r.billingCountry());
        ps.setBigDecimal(6, r.total());
        bindTimestamp(ps, 7, r.lastModified());
        ps.addBatch();
    }

    /**
     * The recipe's changes between runs 2 and 3, as {@link InvoicesScenario} defines them, in this source's SQL: 413
     * and 414 added, 10 corrected, 20 deleted (or flagged, stamped 2014-01-06, with soft deletes), 415 added late.
     */
    void changeSource(Connection src, String name, boolean softDelete) throws SQLException {
        String insert = "INSERT INTO " + q(name) + " (" + columns(softDelete) + ") VALUES (?, ?, ?, ?, ?, ?, ?"
                + (softDelete ? ", false" : "") + ")";
        for (ScenarioStep step : RECIPE.stepsBefore(3)) {
            if (step instanceof ScenarioStep.Insert i) {
                insertOne(src, insert, i.row());
            } else if (step instanceof ScenarioStep.BackdatedInsert b) {
                insertOne(src, insert, b.row());
            } else if (step instanceof ScenarioStep.Update u) {
                try (PreparedStatement ps = src.prepareStatement("UPDATE " + q(name) + " SET " + q("Total") + " = ?, "
                        + q("LastModified") + " = ? WHERE " + q("InvoiceId") + " = ?")) {
                    ps.setBigDecimal(1, u.total());
                    bindTimestamp(ps, 2, u.lastModified());
                    ps.setLong(3, u.key());
                    assertThat(ps.executeUpdate()).isEqualTo(1);
                }
            } else if (step instanceof ScenarioStep.Delete d && softDelete) {
                try (PreparedStatement ps = src.prepareStatement("UPDATE " + q(name) + " SET " + q("IsDeleted") + " = true, "
                        + q("LastModified") + " = ? WHERE " + q("InvoiceId") + " = ?")) {
                    bindTimestamp(ps, 1, LocalDate.of(2014, 1, 6).atStartOfDay());
                    ps.setLong(2, d.key());
                    assertThat(ps.executeUpdate()).isEqualTo(1);
                }
            } else if (step instanceof ScenarioStep.Delete d) {
                try (Statement s = src.createStatement()) {
                    assertThat(s.executeUpdate("DELETE FROM " + q(name) + " WHERE " + q("InvoiceId") + " = " + d.key())).isEqualTo(1);
                }
            } else {
                throw new IllegalStateException("the recipe has no step like " + step.describe());
            }
        }
    }

    private void insertOne(Connection src, String sql, InvoiceRow r) throws SQLException {
        try (PreparedStatement ps = src.prepareStatement(sql)) {
            insert(ps, r);
            ps.executeBatch();
        }
    }

    /** Key-by-key comparison of (Total, LastModified) — never by counts alone. */
    record Diff(long sourceRows, long targetRows, List<Long> missing, List<Long> surplus, List<Long> changed) {
    }

    Diff diff(Connection src, String name, String targetName, boolean liveOnly) throws Exception {
        Map<Long, String> source = new TreeMap<>();
        try (Statement s = src.createStatement(); ResultSet rs = s.executeQuery("SELECT " + q("InvoiceId") + ", " + q("Total")
                + ", " + q("CustomerId") + " FROM " + q(name) + (liveOnly ? " WHERE NOT " + q("IsDeleted") : ""))) {
            while (rs.next()) {
                source.put(rs.getLong(1), new BigDecimal(rs.getString(2)).stripTrailingZeros().toPlainString() + "/" + rs.getLong(3));
            }
        }
        Map<Long, String> target = new TreeMap<>();
        TargetDatabase tgt = target(targetName);
        java.util.function.UnaryOperator<String> tq = tgt.quotes()::quote;
        try (Connection t = tgt.connect(); Statement s = t.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + tq.apply("InvoiceId") + ", " + tq.apply("Total") + ", " + tq.apply("CustomerId")
                     + " FROM " + tq.apply(name))) {
            while (rs.next()) {
                target.put(rs.getLong(1), new BigDecimal(rs.getString(2)).stripTrailingZeros().toPlainString() + "/" + rs.getLong(3));
            }
        }
        List<Long> missing = new ArrayList<>();
        List<Long> changed = new ArrayList<>();
        List<Long> surplus = new ArrayList<>();
        source.forEach((k, v) -> {
            if (!target.containsKey(k)) {
                missing.add(k);
            } else if (!target.get(k).equals(v)) {
                changed.add(k);
            }
        });
        target.keySet().stream().filter(k -> !source.containsKey(k)).forEach(surplus::add);
        return new Diff(source.size(), target.size(), missing, surplus, changed);
    }

    BigDecimal total(String targetName, long id) throws Exception {
        TargetDatabase tgt = target(targetName);
        try (Connection t = tgt.connect(); Statement s = t.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + tgt.quotes().quote("Total") + " FROM " + tgt.quotes().quote("Invoice")
                     + " WHERE " + tgt.quotes().quote("InvoiceId") + " = " + id)) {
            assertThat(rs.next()).isTrue();
            return new BigDecimal(rs.getString(1));
        }
    }
}
