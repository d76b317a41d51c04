package dev.tidemark.reconcile;

import java.util.ArrayList;
import java.util.List;

/** Keys found different, per class, keeping at most {@code limit} keys per class and counting the rest. */
final class Differences {
    private final int limit;
    final List<RowKey> missing = new ArrayList<>();
    final List<RowKey> surplus = new ArrayList<>();
    final List<RowKey> changed = new ArrayList<>();
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
