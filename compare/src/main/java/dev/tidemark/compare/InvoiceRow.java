package dev.tidemark.compare;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.Objects;

/**
 * One row of the Chinook-shaped {@code Invoice} table the compare scenarios run on. {@code LastModified} is the
 * watermark cursor; {@code InvoiceId} the primary key. The Chinook columns not set here (address, state, postal code)
 * stay NULL.
 */
public record InvoiceRow(long invoiceId, long customerId, LocalDateTime invoiceDate, String billingCity, String billingCountry,
                         BigDecimal total, LocalDateTime lastModified) {
    public InvoiceRow {
        Objects.requireNonNull(invoiceDate, "invoiceDate");
        Objects.requireNonNull(total, "total");
        Objects.requireNonNull(lastModified, "lastModified");
    }

    /**
     * An invoice the way the generated Chinook copy has them: customer {@code 1 + id % 59}, even ids billed in São
     * Paulo (Brazil), odd ids in Oslo (Norway).
     */
    public static InvoiceRow invoice(long id, LocalDateTime date, LocalDateTime lastModified, BigDecimal total) {
        return new InvoiceRow(id, 1 + id % 59, date, id % 2 == 0 ? "São Paulo" : "Oslo", id % 2 == 0 ? "Brazil" : "Norway",
                total, lastModified);
    }

    public InvoiceRow withTotal(BigDecimal t) {
        return new InvoiceRow(invoiceId, customerId, invoiceDate, billingCity, billingCountry, t, lastModified);
    }

    public InvoiceRow withLastModified(LocalDateTime t) {
        return new InvoiceRow(invoiceId, customerId, invoiceDate, billingCity, billingCountry, total, t);
    }
}
