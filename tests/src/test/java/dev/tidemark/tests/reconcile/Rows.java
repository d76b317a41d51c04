package dev.tidemark.tests.reconcile;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The scenario's rows as Java values, and the change events that write them to a target through the sink. */
final class Rows {
    static final ColumnType DECIMAL_20_8 = new ColumnType("bytes", ColumnType.DECIMAL, Map.of("scale", "8", "connect.decimal.precision", "20"));
    static final ColumnType ZONED = new ColumnType("string", ColumnType.ZONED_TIMESTAMP, Map.of());
    static final ColumnType LOCAL = new ColumnType("int64", ColumnType.TIMESTAMP_MICROS, Map.of());

    /** One row; {@code happened} is an {@link Instant} (zoned sources) or a {@link LocalDateTime} (MariaDB). */
    record Row(long id, BigDecimal amount, Object happened, Boolean flag, String label, String note) {
        Row withAmount(BigDecimal a) {
            return new Row(id, a, happened, flag, label, note);
        }

        Row withHappened(Object h) {
            return new Row(id, amount, h, flag, label, note);
        }

        Row withFlag(Boolean f) {
            return new Row(id, amount, happened, f, label, note);
        }

        Row withLabel(String l) {
            return new Row(id, amount, happened, flag, l, note);
        }

        Row withNote(String n) {
            return new Row(id, amount, happened, flag, label, n);
        }

        Row withId(long i) {
            return new Row(i, amount, happened, flag, label, note);
        }
    }

    private Rows() {
    }

    /** Rows 1…n: decimals with 8 places, microsecond timestamps, Unicode labels, NULL and empty notes. */
    static List<Row> generate(int n, boolean zoned) {
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            Instant t = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(3600L * i).plusNanos(7_000L * i);
            rows.add(new Row(i, new BigDecimal("1.25").multiply(BigDecimal.valueOf(i)).add(new BigDecimal("0.00000001").multiply(BigDecimal.valueOf(i)))
                    .setScale(8), zoned ? t : LocalDateTime.ofInstant(t, ZoneOffset.UTC), i % 2 == 0,
                    "Zürich ✓ 東京 " + i + (i % 5 == 0 ? " 😀" : ""), note(i)));
        }
        return rows;
    }

    /**
     * NULL, empty, or text; a few with the characters readers split on (tab, newline, backslash for PostgreSQL's COPY;
     * U+001F and U+001E, which the SQLite scan uses as separators).
     */
    private static String note(int i) {
        return switch (i) {
            case 31 -> "line 1\nline 2\tcolumn \\ end";
            case 32 -> "unit\u001Fseparator";
            case 34 -> "\u001E";
            default -> i % 3 == 0 ? null : i % 3 == 1 ? "" : "note " + i;
        };
    }

    static RowSchema schema(boolean zoned) {
        return new RowSchema(List.of(
                new Column("id", ColumnType.of("int64"), false),
                new Column("amount", DECIMAL_20_8, true),
                new Column("happened", zoned ? ZONED : LOCAL, true),
                new Column("flag", ColumnType.of("boolean"), true),
                new Column("label", ColumnType.of("string"), true),
                new Column("note", ColumnType.of("string"), true)), List.of("id"));
    }

    static ChangeEvent.Upsert upsert(String table, Row r, boolean zoned, long lsn) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", r.id());
        row.put("amount", r.amount());
        row.put("happened", r.happened());
        row.put("flag", r.flag());
        row.put("label", r.label());
        row.put("note", r.note());
        return new ChangeEvent.Upsert(new TableId("", table), Map.of("id", r.id()), schema(zoned), row, new SourcePosition.Lsn(lsn),
                ChangeEvent.Op.CREATE);
    }
}
