package dev.tidemark.tests;

import dev.tidemark.event.TableId;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDateTime;

/** The Invoice demonstration with a PostgreSQL source ({@code timestamp}, {@code numeric(10,2)}, {@code boolean}). */
class WatermarkInvoicePostgresIT extends WatermarkInvoiceScenario {
    private final TestInfrastructure.PgServer pg = TestInfrastructure.postgres();

    @Override
    String sourceUrl() throws SQLException {
        return pg.jdbcUrl(TestInfrastructure.newDatabase("wm_invoice"));
    }

    @Override
    String sourceUser() {
        return pg.user();
    }

    @Override
    String sourcePassword() {
        return pg.password();
    }

    @Override
    TableId table(String name) {
        return new TableId("public", name);
    }

    @Override
    String ddl(String name, boolean softDelete) {
        return "CREATE TABLE \"" + name + "\" (\"InvoiceId\" integer PRIMARY KEY, \"CustomerId\" integer NOT NULL, "
                + "\"InvoiceDate\" timestamp NOT NULL, \"BillingAddress\" varchar(70), \"BillingCity\" varchar(40), "
                + "\"BillingState\" varchar(40), \"BillingCountry\" varchar(40), \"BillingPostalCode\" varchar(10), "
                + "\"Total\" numeric(10,2) NOT NULL, \"LastModified\" timestamp NOT NULL"
                + (softDelete ? ", \"IsDeleted\" boolean NOT NULL DEFAULT false" : "") + ")";
    }

    @Override
    void bindTimestamp(PreparedStatement ps, int index, LocalDateTime t) throws SQLException {
        ps.setObject(index, t);
    }

    @Override
    String q(String identifier) {
        return "\"" + identifier + "\"";
    }
}
