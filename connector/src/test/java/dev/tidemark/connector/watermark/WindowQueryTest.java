package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.ColumnKind;
import dev.tidemark.jdbc.CursorValue;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.MariaDbDatabase;
import dev.tidemark.jdbc.PostgresDatabase;
import dev.tidemark.jdbc.SqliteDatabase;
import dev.tidemark.jdbc.SourceTable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowQueryTest {
    static final SourceTable INVOICE = new SourceTable(new TableId("main", "Invoice"), List.of(
            column("InvoiceId", ColumnKind.INTEGER), column("Total", ColumnKind.DECIMAL), column("LastModified", ColumnKind.LOCAL)),
            List.of("InvoiceId"));

    static SourceColumn column(String name, ColumnKind kind) {
        return new SourceColumn(name, kind, kind.columnType(10, 2), true, -1, kind.name());
    }

    static Watermark at(String t, Long id) {
        return new Watermark(new CursorValue.Local(LocalDateTime.parse(t)), id);
    }

    @Test
    void theWorkedExample_tieBrokenBoundsAndKeysetResume() {
        Window w = Window.incremental(at("2014-01-05T00:00", 414L), at("2014-01-06T00:00", 10L));
        WindowQuery q = new WindowQuery(new SqliteDatabase(), INVOICE, List.of("InvoiceId"),
                new Cursor.TimestampId("LastModified", "InvoiceId"), w);
        assertThat(q.chunkSql(true, 2)).isEqualTo("SELECT \"InvoiceId\", \"Total\", \"LastModified\" FROM \"main\".\"Invoice\" "
                + "WHERE (\"LastModified\" > ? OR (\"LastModified\" = ? AND \"InvoiceId\" > ?)) "
                + "AND (\"LastModified\" < ? OR (\"LastModified\" = ? AND \"InvoiceId\" <= ?)) "
                + "AND \"InvoiceId\" > ? ORDER BY \"InvoiceId\" LIMIT 2");
    }

    @Test
    void firstRunHasOnlyTheUpperBound_settledBoundCoversEveryId() {
        Window w = Window.incremental(null, at("2014-01-06T00:00", null));
        WindowQuery q = new WindowQuery(new PostgresDatabase(), INVOICE, List.of("InvoiceId"),
                new Cursor.TimestampId("LastModified", "InvoiceId"), w);
        assertThat(q.windowPredicate()).isEqualTo("\"LastModified\" <= ?");
    }

    @Test
    void tumblingWindowsAreHalfOpen() {
        Window w = Window.tumbling(at("2013-01-01T00:00", null), at("2013-07-01T00:00", null));
        WindowQuery q = new WindowQuery(new MariaDbDatabase(), INVOICE, List.of("InvoiceId"), new Cursor.Timestamp("LastModified"), w);
        assertThat(q.windowPredicate()).isEqualTo("`LastModified` >= ? AND `LastModified` < ?");
        assertThat(q.countSql()).isEqualTo("SELECT COUNT(*) FROM `main`.`Invoice` WHERE `LastModified` >= ? AND `LastModified` < ?");
    }

    @Test
    void compositeKeysPageLexicographically_identifiersAreQuotedWithQuotesDoubled() {
        SourceTable t = new SourceTable(new TableId("", "odd\"table"), List.of(column("a\"b", ColumnKind.INTEGER),
                column("c", ColumnKind.TEXT), column("m", ColumnKind.INTEGER)), List.of());
        WindowQuery q = new WindowQuery(new PostgresDatabase(), t, List.of("a\"b", "c"), new Cursor.Id("m"),
                Window.incremental(Watermark.of(new CursorValue.Number(5)), Watermark.of(new CursorValue.Number(9))));
        assertThat(q.keysetPredicate()).isEqualTo("((\"a\"\"b\" > ?) OR (\"a\"\"b\" = ? AND \"c\" > ?))");
        assertThat(q.chunkSql(true, 10)).startsWith("SELECT \"a\"\"b\", \"c\", \"m\" FROM \"odd\"\"table\" WHERE \"m\" > ? AND \"m\" <= ?")
                .endsWith("ORDER BY \"a\"\"b\", \"c\" LIMIT 10");
        assertThat(new MariaDbDatabase().quote("x`y")).isEqualTo("`x``y`");
    }
}
