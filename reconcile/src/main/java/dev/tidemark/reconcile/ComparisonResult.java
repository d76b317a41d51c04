package dev.tidemark.reconcile;

import java.util.List;

/**
 * The outcome of comparing one source table with its target copy by primary key and row checksum.
 * Counts alone prove nothing: {@code sourceRows == targetRows} can hold while rows are missing and surplus.
 * Keys are rendered as strings (key values joined with {@code ","}). Produced by
 * {@link ReconcileResult#toComparisonResult()} for {@code compare}'s {@code TableCheck}, and by the tests' in-memory
 * oracle ({@code dev.tidemark.testkit.TableComparison}).
 *
 * @param missing keys in the source but not the target
 * @param surplus keys in the target but not the source
 * @param changed keys in both whose row checksums differ
 */
public record ComparisonResult(String table, long sourceRows, long targetRows, List<String> missing,
                               List<String> surplus, List<String> changed) {
    public ComparisonResult {
        missing = List.copyOf(missing);
        surplus = List.copyOf(surplus);
        changed = List.copyOf(changed);
    }

    public boolean equal() {
        return missing.isEmpty() && surplus.isEmpty() && changed.isEmpty();
    }

    public String summary() {
        return String.format("%s: source %d rows, target %d rows; missing %d%s, surplus %d%s, changed %d%s → %s",
                table, sourceRows, targetRows, missing.size(), abbreviated(missing), surplus.size(), abbreviated(surplus),
                changed.size(), abbreviated(changed), equal() ? "EQUAL" : "DIFFERENT");
    }

    private static String abbreviated(List<String> keys) {
        if (keys.isEmpty()) {
            return "";
        }
        return " " + (keys.size() <= 10 ? keys.toString() : keys.subList(0, 10) + "…");
    }
}
