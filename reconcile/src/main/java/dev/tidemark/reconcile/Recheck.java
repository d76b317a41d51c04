package dev.tidemark.reconcile;

import java.util.List;
import java.util.Map;

/**
 * The re-check decision, pure: after the settle interval each listed key is looked up again on both sides, and only
 * keys still different stay. A key now on the source only is missing, on the target only surplus, on both with
 * different hashes changed; a key now equal on both (or gone from both) has settled away. Keys counted beyond the
 * key limit were never listed, so never re-checked: their counts carry over as they were.
 */
final class Recheck {
    private Recheck() {
    }

    /**
     * @param found  the scan's differences
     * @param source the row hash of each listed key found on the source now (absent: no such row)
     * @param target the same on the target
     * @param limit  most keys listed per class
     */
    static Differences still(Differences found, Map<RowKey, Long> source, Map<RowKey, Long> target, int limit) {
        List<RowKey> keys = found.listed();
        Differences still = new Differences(limit);
        for (RowKey k : keys) {
            Long a = source.get(k);
            Long b = target.get(k);
            if (a != null && b == null) {
                still.missing(k);
            } else if (a == null && b != null) {
                still.surplus(k);
            } else if (a != null && !a.equals(b)) {
                still.changed(k);
            }
        }
        long[] unlisted = found.unlisted();
        still.missingCount += unlisted[0];
        still.surplusCount += unlisted[1];
        still.changedCount += unlisted[2];
        return still;
    }
}
