package dev.tidemark.reconcile;

import java.util.List;
import java.util.Map;

/**
 * The re-check decision, pure: after the settle interval each listed key is looked up again on both sides, and only
 * keys still different stay. A key now on the source only is missing, on the target only surplus, on both with
 * different hashes changed (with the columns whose values differ, {@link ChangedRow}); a key now equal on both (or
 * gone from both) has settled away. Keys counted beyond the
 * key limit were never listed, so never re-checked: their counts carry over as they were.
 */
final class Recheck {
    private Recheck() {
    }

    /**
     * @param found  the scan's differences
     * @param source  the canonical values of each listed key's row found on the source now, in the order of
     *                {@code columns} (absent: no such row)
     * @param target  the same on the target
     * @param columns the compared columns' names
     * @param limit   most keys listed per class
     */
    static Differences still(Differences found, Map<RowKey, String[]> source, Map<RowKey, String[]> target,
                             List<String> columns, int limit) {
        List<RowKey> keys = found.listed();
        Differences still = new Differences(limit);
        for (RowKey k : keys) {
            String[] a = source.get(k);
            String[] b = target.get(k);
            if (a != null && b == null) {
                still.missing(k);
            } else if (a == null && b != null) {
                still.surplus(k);
            } else if (a != null && RowHash.of(a) != RowHash.of(b)) {
                still.changed(ChangedRow.of(k, columns, a, b));
            }
        }
        long[] unlisted = found.unlisted();
        still.missingCount += unlisted[0];
        still.surplusCount += unlisted[1];
        still.changedCount += unlisted[2];
        return still;
    }
}
