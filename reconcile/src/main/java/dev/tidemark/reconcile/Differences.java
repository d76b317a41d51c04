package dev.tidemark.reconcile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keys found different, per class, keeping at most {@code limit} keys per class and counting the rest; after the
 * re-check, what changed in each listed changed key ({@link #changedRows}).
 */
final class Differences {
    private final int limit;
    final List<RowKey> missing = new ArrayList<>();
    final List<RowKey> surplus = new ArrayList<>();
    final List<RowKey> changed = new ArrayList<>();
    /** The differing columns of listed changed keys, when known (the re-check read both rows). */
    final Map<RowKey, ChangedRow> changedRows = new HashMap<>();
    long missingCount;
    long surplusCount;
    long changedCount;

    Differences(int limit) {
        this.limit = limit;
    }

    void missing(RowKey k) {
        if (missingCount++ < limit) {
            missing.add(k);
        }
    }

    void surplus(RowKey k) {
        if (surplusCount++ < limit) {
            surplus.add(k);
        }
    }

    void changed(RowKey k) {
        if (changedCount++ < limit) {
            changed.add(k);
        }
    }

    /** A changed key with the columns that differ: listed (and its columns kept) within the limit. */
    void changed(ChangedRow row) {
        if (changedCount < limit) {
            changedRows.put(row.key(), row);
        }
        changed(row.key());
    }

    /** Adds another collection's keys (up to this one's limit) and counts. */
    void addAll(Differences other) {
        other.missing.forEach(k -> {
            if (missing.size() < limit) {
                missing.add(k);
            }
        });
        other.surplus.forEach(k -> {
            if (surplus.size() < limit) {
                surplus.add(k);
            }
        });
        other.changed.forEach(k -> {
            if (changed.size() < limit) {
                changed.add(k);
            }
        });
        missingCount += other.missingCount;
        surplusCount += other.surplusCount;
        changedCount += other.changedCount;
    }

    long total() {
        return missingCount + surplusCount + changedCount;
    }

    /** The listed keys of all classes. */
    List<RowKey> listed() {
        List<RowKey> all = new ArrayList<>(missing.size() + surplus.size() + changed.size());
        all.addAll(missing);
        all.addAll(surplus);
        all.addAll(changed);
        return all;
    }

    /** Keys counted beyond the limit, per class: {missing, surplus, changed}. */
    long[] unlisted() {
        return new long[] {missingCount - missing.size(), surplusCount - surplus.size(), changedCount - changed.size()};
    }
}
