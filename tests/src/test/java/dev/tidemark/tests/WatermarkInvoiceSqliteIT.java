package dev.tidemark.tests;

import dev.tidemark.event.TableId;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** The Invoice demonstration with a SQLite source file (date-times as text, as Chinook's SQLite edition keeps them). */
class WatermarkInvoiceSqliteIT extends WatermarkInvoiceScenario {
    private static final DateTimeFormatter TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");

    @Override
    String sourceUrl() {
        return "jdbc:sqlite:" + dir.resolve("chinook.db");
    }

    @Override
    String sourceUser() {
        return null;
    }

    @Override
    String sourcePassword() {
        return null;
    }

    @Override
    TableId table(String name) {
        return new TableId("main", name);
    }

    @Override
    String ddl(String name, boolean softDelete) {
        return "CREATE TABLE \"" + name + "\" (InvoiceId INTEGER NOT NULL PRIMARY KEY, CustomerId INTEGER NOT NULL, "
                + "InvoiceDate DATETIME NOT NULL, BillingAddress NVARCHAR(70), BillingCity NVARCHAR(40), BillingState NVARCHAR(40), "
                + "BillingCountry NVARCHAR(40), BillingPostalCode NVARCHAR(10), Total NUMERIC(10,2) NOT NULL, "
                + "LastModified DATETIME NOT NULL" + (softDelete ? ", IsDeleted BOOLEAN NOT NULL DEFAULT 0" : "") + ")";
    }

    @Override
    void bindTimestamp(PreparedStatement ps, int index, LocalDateTime t) throws SQLException {
        ps.setString(index, TEXT.format(t));
    }

    @Override
    String q(String identifier) {
        return "\"" + identifier + "\"";
    }
}
