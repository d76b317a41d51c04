package dev.tidemark.reconcile;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.tidemark.jdbc.ValueKind;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;

/**
 * Renders a {@link ReconcileResult}: a short text report with a bounded list of keys per class, and JSON with every
 * listed key. Example text:
 * <pre>
 * reconcile public.items → items: source 40 rows, target 40 rows → DIFFERENT
 *   missing 2: 5, 17
 *   surplus 2: 41, 42
 *   changed 5: 7, 9, 11, 13, 15
 *     7: amount '12.5' → '12.51'
 *     9: label 'Zürich' → 'Zurich', note NULL → ''
 *     …
 *   holds at source position lsn:0/1A2B3C8, time 2026-05-01T10:00:05.123Z (9 keys re-checked after the settle interval, 0 settled);
 *     the scan started at lsn:0/1A2B000, 2026-05-01T10:00:00.101Z
 *   streamed checksums: 5 segments, 2 compared row by row (36 rows) in 0.2 s
 * </pre>
 * Under {@code changed}, the first {@code shown} changed keys each get a line with the columns that differ, source
 * value → target value (canonical text, quoted and escaped; values over {@value #VALUE_CHARS} characters cut).
 *
 * <p>JSON keys are objects of key column → value ({@code {"id": 5}}), so composite and text keys stay unambiguous;
 * values keep their type: integer, decimal and finite float keys are JSON numbers, booleans JSON booleans, the rest
 * canonical text. {@code changed.rows} lists every listed changed key with the columns that differ and both values,
 * as canonical text (SQL NULL as JSON null):
 * {@code {"key": {"id": 7}, "columns": {"amount": {"source": "12.5", "target": "12.51"}}}}.
 */
public final class ReconcileReport {
    private static final JsonFactory JSON = new JsonFactory();
    /** Longest value shown in the text report, in characters. */
    static final int VALUE_CHARS = 60;

    private ReconcileReport() {
    }

    public static String text(ReconcileResult r, int shown) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "reconcile %s → %s: source %,d rows, target %,d rows → %s%n", r.table(), r.targetTable(),
                r.sourceRows(), r.targetRows(), r.equal() ? "EQUAL" : "DIFFERENT"));
        line(b, "missing", r.missingCount(), r.missingKeys(), shown);
        line(b, "surplus", r.surplusCount(), r.surplusKeys(), shown);
        line(b, "changed", r.changedCount(), r.changedKeys(), shown);
        r.changedRows().stream().limit(shown).forEach(row -> b.append("    ").append(changedColumns(row)).append(System.lineSeparator()));
        b.append("  holds at source position ").append(r.sourcePosition().startsWith("time:") ? "(none: not PostgreSQL)" : r.sourcePosition())
                .append(", time ").append(r.heldAt());
        if (r.rechecked() > 0) {
            b.append(" (").append(r.rechecked()).append(" keys re-checked after the settle interval, ").append(r.settledAway())
                    .append(" settled)");
        }
        b.append("; the scan started at ").append(r.startPosition().startsWith("lsn:") ? r.startPosition() + ", " : "").append(r.startedAt());
        b.append(System.lineSeparator());
        if (!r.complete()) {
            b.append("  more differences than the key limit: only the listed keys were re-checked; counts include the rest")
                    .append(System.lineSeparator());
        }
        ReconcileResult.Stats s = r.stats();
        b.append(String.format(Locale.ROOT, "  %s: %,d segments, %,d bisected, %,d compared row by row (%,d rows) in %.1f s%n",
                r.method().equals("merged") ? "merged in key order" : r.method() + " checksums", s.segments(), s.bisected(),
                s.fetchedSegments(), s.fetchedRows(), s.elapsed().toMillis() / 1000.0));
        return b.toString();
    }

    private static void line(StringBuilder b, String what, long count, List<RowKey> keys, int shown) {
        b.append("  ").append(what).append(' ').append(String.format(Locale.ROOT, "%,d", count));
        if (count > 0) {
            b.append(':').append(keys(keys, shown).replaceFirst("^ \\[", " ").replaceFirst("]$", ""));
            if (count > keys.size() && keys.size() <= shown) {
                b.append(", …");
            }
        }
        b.append(System.lineSeparator());
    }

    /** {@code 7: amount '12.5' → '12.51', note NULL → ''}. */
    static String changedColumns(ChangedRow row) {
        StringBuilder b = new StringBuilder(row.key().toString()).append(':');
        String sep = " ";
        for (ChangedRow.ColumnChange c : row.columns()) {
            b.append(sep).append(c.column()).append(' ').append(shown(c.source())).append(" → ").append(shown(c.target()));
            sep = ", ";
        }
        return b.toString();
    }

    /** {@code NULL}, or the value quoted, with quotes, backslashes and control characters escaped, cut when long. */
    static String shown(String value) {
        if (value == null) {
            return "NULL";
        }
        StringBuilder b = new StringBuilder("'");
        int chars = 0;
        for (int i = 0; i < value.length(); i = value.offsetByCodePoints(i, 1)) {
            if (chars++ == VALUE_CHARS) {
                return b.append("…'").toString();
            }
            int c = value.codePointAt(i);
            switch (c) {
                case '\'' -> b.append("\\'");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (Character.isISOControl(c)) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", c));
                    } else {
                        b.appendCodePoint(c);
                    }
                }
            }
        }
        return b.append('\'').toString();
    }

    /** {@code " [k1, k2, …]"} with at most {@code shown} keys, or "" for none. */
    static String keys(List<RowKey> keys, int shown) {
        if (keys.isEmpty()) {
            return "";
        }
        List<String> s = keys.stream().limit(shown).map(RowKey::toString).toList();
        return " [" + String.join(", ", s) + (keys.size() > shown ? ", … " + (keys.size() - shown) + " more" : "") + "]";
    }

    /**
     * Writes results as one JSON document, every listed key included: {@code {"equal": …, "tables": [ … ]}}. Does not
     * close {@code out}.
     */
    public static void json(List<ReconcileResult> results, OutputStream out) throws IOException {
        try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            g.configure(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN, true);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeBooleanField("equal", results.stream().allMatch(ReconcileResult::equal));
            g.writeArrayFieldStart("tables");
            for (ReconcileResult r : results) {
                table(g, r);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        out.write('\n');
        out.flush();
    }

    private static void table(JsonGenerator g, ReconcileResult r) throws IOException {
        g.writeStartObject();
        g.writeStringField("table", r.table());
        g.writeStringField("targetTable", r.targetTable());
        g.writeArrayFieldStart("keyColumns");
        for (String k : r.keyColumns()) {
            g.writeString(k);
        }
        g.writeEndArray();
        g.writeBooleanField("equal", r.equal());
        g.writeBooleanField("complete", r.complete());
        g.writeNumberField("sourceRows", r.sourceRows());
        g.writeNumberField("targetRows", r.targetRows());
        keys(g, "missing", r.missingCount(), r.missingKeys(), r);
        g.writeEndObject();
        keys(g, "surplus", r.surplusCount(), r.surplusKeys(), r);
        g.writeEndObject();
        keys(g, "changed", r.changedCount(), r.changedKeys(), r);
        changedRows(g, r);
        g.writeEndObject();
        g.writeObjectFieldStart("holdsAt");
        g.writeStringField("sourcePosition", r.sourcePosition());
        g.writeStringField("time", r.heldAt().toString());
        g.writeEndObject();
        g.writeObjectFieldStart("startedAt");
        g.writeStringField("sourcePosition", r.startPosition());
        g.writeStringField("time", r.startedAt().toString());
        g.writeEndObject();
        g.writeNumberField("rechecked", r.rechecked());
        g.writeNumberField("settledAway", r.settledAway());
        g.writeStringField("method", r.method());
        g.writeObjectFieldStart("stats");
        g.writeNumberField("segments", r.stats().segments());
        g.writeNumberField("bisected", r.stats().bisected());
        g.writeNumberField("segmentsComparedRowByRow", r.stats().fetchedSegments());
        g.writeNumberField("rowsReadRowByRow", r.stats().fetchedRows());
        g.writeNumberField("elapsedMillis", r.stats().elapsed().toMillis());
        g.writeEndObject();
        g.writeEndObject();
    }

    /** Opens the class's object with its count and keys; the caller closes it. */
    private static void keys(JsonGenerator g, String name, long count, List<RowKey> keys, ReconcileResult r) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("count", count);
        g.writeArrayFieldStart("keys");
        for (RowKey k : keys) {
            key(g, k, r);
        }
        g.writeEndArray();
    }

    private static void changedRows(JsonGenerator g, ReconcileResult r) throws IOException {
        g.writeArrayFieldStart("rows");
        for (ChangedRow row : r.changedRows()) {
            g.writeStartObject();
            g.writeFieldName("key");
            key(g, row.key(), r);
            g.writeObjectFieldStart("columns");
            for (ChangedRow.ColumnChange c : row.columns()) {
                g.writeObjectFieldStart(c.column());
                g.writeStringField("source", c.source());
                g.writeStringField("target", c.target());
                g.writeEndObject();
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void key(JsonGenerator g, RowKey k, ReconcileResult r) throws IOException {
        g.writeStartObject();
        for (int i = 0; i < r.keyColumns().size(); i++) {
            g.writeFieldName(r.keyColumns().get(i));
            typed(g, i < r.keyKinds().size() ? r.keyKinds().get(i) : ValueKind.TEXT, k.values().get(i));
        }
        g.writeEndObject();
    }

    /** A key value as JSON of its kind: numbers as numbers (when finite), booleans as booleans, the rest as text. */
    static void typed(JsonGenerator g, ValueKind kind, String text) throws IOException {
        switch (kind) {
            case INTEGER -> {
                if (text.matches("-?[0-9]+")) {
                    g.writeNumber(new BigInteger(text));
                    return;
                }
            }
            case DECIMAL, FLOAT -> {
                if (text.matches("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?")) {
                    g.writeNumber(new BigDecimal(text));
                    return;
                }
            }
            case BOOLEAN -> {
                if (text.equals("true") || text.equals("false")) {
                    g.writeBoolean(Boolean.parseBoolean(text));
                    return;
                }
            }
            default -> {
                // text below
            }
        }
        g.writeString(text);
    }
}
