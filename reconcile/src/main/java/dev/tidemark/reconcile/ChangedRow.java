package dev.tidemark.reconcile;

import java.util.List;
import java.util.Objects;

/**
 * What changed in one changed key, as found by the re-check that read the row on both sides: every compared column
 * whose values differ, with the source and the target value as canonical text ({@link CanonicalValues}; null is SQL
 * NULL). Columns are in the table's column order; a changed row has at least one.
 */
public record ChangedRow(RowKey key, List<ColumnChange> columns) {
    public ChangedRow {
        Objects.requireNonNull(key, "key");
        columns = List.copyOf(columns);
    }

    /** One column that differs: its name (the source's) and both values. */
    public record ColumnChange(String column, String source, String target) {
        public ColumnChange {
            Objects.requireNonNull(column, "column");
        }
    }

    /**
     * The columns whose values differ between {@code source} and {@code target}, both the canonical values of one
     * row in the order of {@code columns}.
     */
    static ChangedRow of(RowKey key, List<String> columns, String[] source, String[] target) {
        List<ColumnChange> out = new java.util.ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (!Objects.equals(source[i], target[i])) {
                out.add(new ColumnChange(columns.get(i), source[i], target[i]));
            }
        }
        return new ChangedRow(key, out);
    }
}
