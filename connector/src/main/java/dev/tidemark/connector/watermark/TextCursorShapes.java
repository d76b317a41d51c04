package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.TextTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Pure: the shapes of the date-time text a TEXT cursor column holds (SQLite has no date type, so applications store
 * ISO-8601 text: {@code 2024-05-01T10:00:00Z}, {@code 2024-05-01 10:00:00}, …). Windows compare such a column by its
 * text order in the database, which is time order only when every value has one shape: same separator ({@code T} or
 * space), same seconds and fraction digits, same zone suffix. Feed every non-NULL value with its row's key
 * ({@link #add}); {@link #verdict()} then says {@link Uniform} (with the shape) or {@link Mixed} (each shape found,
 * how many rows, example keys). Text that is not ISO-8601 (or has surrounding blanks) is a shape of its own. Not
 * thread-safe.
 */
final class TextCursorShapes {
    private static final int EXAMPLES = 3;

    /** What the column holds. */
    sealed interface Verdict permits Uniform, Mixed {
    }

    /**
     * Every value has one shape ({@code shape} is empty when the column holds no value yet).
     *
     * @param pattern the shape as a pattern, e.g. {@code YYYY-MM-DD HH:MM:SS}
     */
    record Uniform(Optional<TextTime.Shape> shape, String pattern, long rows) implements Verdict {
    }

    /** More than one shape: per pattern, its rows and up to three example keys, in the order first seen. */
    record Mixed(Map<String, Found> shapes) implements Verdict {
    }

    /** One shape's rows and first keys. */
    record Found(long rows, List<String> exampleKeys) {
    }

    private final Map<String, Long> counts = new LinkedHashMap<>();
    private final Map<String, List<String>> examples = new LinkedHashMap<>();
    private TextTime.Shape first;

    void add(String key, String raw) {
        Optional<TextTime> t = raw.equals(raw.strip()) ? TextTime.parse(raw) : Optional.empty();
        String pattern = t.map(v -> pattern(v.shape())).orElse("not ISO-8601");
        if (t.isPresent() && first == null) {
            first = t.get().shape();
        }
        counts.merge(pattern, 1L, Long::sum);
        List<String> keys = examples.computeIfAbsent(pattern, p -> new ArrayList<>());
        if (keys.size() < EXAMPLES) {
            keys.add(key);
        }
    }

    Verdict verdict() {
        if (counts.isEmpty()) {
            return new Uniform(Optional.empty(), "no values yet", 0);
        }
        if (counts.size() == 1 && first != null) {
            return new Uniform(Optional.of(first), pattern(first), counts.values().iterator().next());
        }
        Map<String, Found> found = new LinkedHashMap<>();
        counts.forEach((p, n) -> found.put(p, new Found(n, List.copyOf(examples.get(p)))));
        return new Mixed(found);
    }

    /** E.g. {@code YYYY-MM-DD}, {@code YYYY-MM-DDTHH:MM:SSZ}, {@code YYYY-MM-DD HH:MM:SS.fff+02:00}. */
    static String pattern(TextTime.Shape s) {
        if (s.dateOnly()) {
            return "YYYY-MM-DD";
        }
        return "YYYY-MM-DD" + s.separator() + "HH:MM" + (s.seconds() || s.fractionDigits() > 0 ? ":SS" : "")
                + (s.fractionDigits() > 0 ? "." + "f".repeat(s.fractionDigits()) : "") + (s.zone() == null ? "" : s.zone());
    }

    /** The shapes of a {@link Mixed} verdict as one phrase: {@code A (3 rows, e.g. keys 1, 2, 3); B (1 row, e.g. key 9)}. */
    static String describe(Mixed mixed) {
        return mixed.shapes().entrySet().stream().map(e -> e.getKey() + " (" + e.getValue().rows() + " row"
                + (e.getValue().rows() == 1 ? "" : "s") + ", e.g. key" + (e.getValue().exampleKeys().size() == 1 ? " " : "s ")
                + String.join(", ", e.getValue().exampleKeys()) + ")").collect(Collectors.joining("; "));
    }
}
