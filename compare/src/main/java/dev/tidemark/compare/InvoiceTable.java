package dev.tidemark.compare;

import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The scenarios' {@code public."Invoice"} table on PostgreSQL (Chinook's column names and types plus {@code
 * LastModified timestamp}), and the SQL that makes each {@link ScenarioStep} happen. The caller owns the connection and
 * its transaction: each method runs its statements on it and commits nothing itself, so a long transaction can span
 * several steps on a connection of its own.
 */
public final class InvoiceTable {
    public static final TableId TABLE = new TableId("public", "Invoice");
    public static final String KEY = "InvoiceId";
    public static final String CURSOR = "LastModified";
    private static final String COLUMNS = "\"InvoiceId\", \"CustomerId\", \"InvoiceDate\", \"BillingCity\", \"BillingCountry\", "
            + "\"Total\", \"LastModified\"";

    private InvoiceTable() {
    }

    /** Drops and creates the table, with the index on the cursor that watermark polling needs. */
    public static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS public.\"Invoice\"");
            s.execute("CREATE TABLE public.\"Invoice\" (\"InvoiceId\" integer PRIMARY KEY, \"CustomerId\" integer NOT NULL, "
                    + "\"InvoiceDate\" timestamp NOT NULL, \"BillingAddress\" varchar(70), \"BillingCity\" varchar(40), "
                    + "\"BillingState\" varchar(40), \"BillingCountry\" varchar(40), \"BillingPostalCode\" varchar(10), "
                    + "\"Total\" numeric(10,2) NOT NULL, \"LastModified\" timestamp NOT NULL)");
            s.execute("CREATE INDEX \"IX_Invoice_LastModified\" ON public.\"Invoice\" (\"LastModified\")");
        }
    }

    /** Inserts rows in one batch. */
    public static void insert(Connection c, List<InvoiceRow> rows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO public.\"Invoice\" (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            for (InvoiceRow r : rows) {
                ps.setLong(1, r.invoiceId());
                ps.setLong(2, r.customerId());
                ps.setObject(3, r.invoiceDate());
                ps.setString(4, r.billingCity());
                ps.setString(5, r.billingCountry());
                ps.setBigDecimal(6, r.total());
                ps.setObject(7, r.lastModified());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** Makes one step happen on {@code c} (a long transaction: all its writes). */
    public static void write(Connection c, ScenarioStep step) throws SQLException {
        if (step instanceof ScenarioStep.Insert s) {
            insert(c, List.of(s.row()));
        } else if (step instanceof ScenarioStep.BackdatedInsert s) {
            insert(c, List.of(s.row()));
        } else if (step instanceof ScenarioStep.EqualTimestampBoundary s) {
            insert(c, List.of(s.row()));
        } else if (step instanceof ScenarioStep.Update u) {
            String sql = u.touchesCursor()
                    ? "UPDATE public.\"Invoice\" SET \"Total\" = ?, \"LastModified\" = ? WHERE \"InvoiceId\" = ?"
                    : "UPDATE public.\"Invoice\" SET \"Total\" = ? WHERE \"InvoiceId\" = ?";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                int i = 1;
                ps.setBigDecimal(i++, u.total());
                if (u.touchesCursor()) {
                    ps.setObject(i++, u.lastModified());
                }
                ps.setLong(i, u.key());
                expectOne(ps.executeUpdate(), u);
            }
        } else if (step instanceof ScenarioStep.Delete d) {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM public.\"Invoice\" WHERE \"InvoiceId\" = ?")) {
                ps.setLong(1, d.key());
                expectOne(ps.executeUpdate(), d);
            }
        } else if (step instanceof ScenarioStep.LongTransaction lt) {
            for (ScenarioStep w : lt.writes()) {
                write(c, w);
            }
        } else {
            throw new IllegalArgumentException("unknown step " + step);
        }
    }

    private static void expectOne(int rows, ScenarioStep step) {
        if (rows != 1) {
            throw new IllegalStateException("step '" + step.describe() + "' changed " + rows + " rows of " + TABLE + ", expected 1");
        }
    }
}
