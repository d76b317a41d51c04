package dev.tidemark.reconcile;

import java.util.List;
import java.util.Objects;

/**
 * One row's key as canonical text per key column, in key-column order ({@link CanonicalValues}): the same on every
 * engine, so a key read from PostgreSQL equals the same key read from SQLite.
 */
public record RowKey(List<String> values) {
    public RowKey {
        values = List.copyOf(values);
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a key has at least one column");
        }
        for (String v : values) {
            Objects.requireNonNull(v, "key value");
        }
    }

    public static RowKey of(String... values) {
        return new RowKey(List.of(values));
    }

    /** The values joined with {@code ","} ({@code 42}; {@code 7,abc} for a composite key). */
    @Override
    public String toString() {
        return values.size() == 1 ? values.get(0) : String.join(",", values);
    }
}
