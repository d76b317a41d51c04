package dev.tidemark.compare;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The built-in scenario, the incremental-copy recipe's own demonstration on a generated copy of the Chinook
 * {@code Invoice} table: 412 invoices dated evenly from 2009-01-01 to 2013-12-22 with {@code LastModified =
 * InvoiceDate}. Three runs: the first copies 412 rows, the second finds nothing new; between runs 2 and 3 invoices 413
 * and 414 are added (2014-01-05), invoice 10 is corrected (Total 99.00, LastModified 2014-01-06), invoice 20 is deleted
 * and invoice 415 is inserted backdated (LastModified 2013-06-01). Run 3 copies 3 rows; the watermark target then
 * misses 415 and still holds 20 while the counts agree (414 and 414).
 */
public record InvoicesScenario() implements Scenario {
    public static final int INVOICES = 412;
    public static final LocalDate FIRST = LocalDate.of(2009, 1, 1);
    public static final LocalDate LAST = LocalDate.of(2013, 12, 22);

    @Override
    public String name() {
        return "invoices";
    }

    @Override
    public Optional<Long> seed() {
        return Optional.empty();
    }

    @Override
    public String describe() {
        return "Chinook-shaped Invoice table, " + INVOICES + " rows " + FIRST + " … " + LAST + ", " + runs() + " runs";
    }

    /** The 412 generated invoices: dates spread evenly over the range, totals 0.98 … 25.97. */
    @Override
    public List<InvoiceRow> initialRows() {
        long days = ChronoUnit.DAYS.between(FIRST, LAST);
        List<InvoiceRow> rows = new ArrayList<>(INVOICES);
        for (int i = 0; i < INVOICES; i++) {
            LocalDateTime date = FIRST.plusDays(Math.round(i * (double) days / (INVOICES - 1))).atStartOfDay();
            rows.add(InvoiceRow.invoice(i + 1, date, date, new BigDecimal((i * 37L) % 2500 + 98).movePointLeft(2)));
        }
        return rows;
    }

    @Override
    public int runs() {
        return 3;
    }

    @Override
    public List<ScenarioStep> stepsBefore(int run) {
        if (run != 3) {
            return List.of();
        }
        LocalDateTime jan5 = LocalDate.of(2014, 1, 5).atStartOfDay();
        LocalDateTime late = LocalDate.of(2013, 6, 1).atStartOfDay();
        return List.of(
                new ScenarioStep.Insert(InvoiceRow.invoice(413, jan5, jan5, new BigDecimal("1.98"))),
                new ScenarioStep.Insert(InvoiceRow.invoice(414, jan5, jan5, new BigDecimal("3.96"))),
                new ScenarioStep.Update(10, new BigDecimal("99.00"), LocalDate.of(2014, 1, 6).atStartOfDay()),
                new ScenarioStep.Delete(20),
                new ScenarioStep.BackdatedInsert(InvoiceRow.invoice(415, late, late, new BigDecimal("5.94"))));
    }
}
