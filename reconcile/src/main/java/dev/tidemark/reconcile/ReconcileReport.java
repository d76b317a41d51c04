package dev.tidemark.reconcile;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
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
 *   holds at source position lsn:0/1A2B3C8, time 2026-05-01T10:00:05.123Z (9 keys re-checked after the settle interval, 0 settled);
 *     the scan started at lsn:0/1A2B000, 2026-05-01T10:00:00.101Z
 *   streamed checksums: 5 segments, 2 compared row by row (36 rows) in 0.2 s
 * </pre>
 * JSON keys are objects of key column → canonical text ({@code {"id": "5"}}), so composite and text keys stay
 * unambiguous.
 */
public final class ReconcileReport {
    private static final JsonFactory JSON = new JsonFactory();

    private ReconcileReport() {
    }

    public static String text(ReconcileResult r, int shown) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "reconcile %s → %s: source %,d rows, target %,d rows → %s%n", r.table(), r.targetTable(),
                r.sourceRows(), r.targetRows(), r.equal() ? "EQUAL" : "DIFFERENT"));
        line(b, "missing", r.missingCount(), r.missingKeys(), shown);
        line(b, "surplus", r.surplusCount(), r.surplusKeys(), shown);
        line(b, "changed", r.changedCount(), r.changedKeys(), shown);
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
        keys(g, "missing", r.missingCount(), r.missingKeys(), r.keyColumns());
        keys(g, "surplus", r.surplusCount(), r.surplusKeys(), r.keyColumns());
        keys(g, "changed", r.changedCount(), r.changedKeys(), r.keyColumns());
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

    private static void keys(JsonGenerator g, String name, long count, List<RowKey> keys, List<String> columns) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("count", count);
        g.writeArrayFieldStart("keys");
        for (RowKey k : keys) {
            g.writeStartObject();
            for (int i = 0; i < columns.size(); i++) {
                g.writeStringField(columns.get(i), k.values().get(i));
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }
}
