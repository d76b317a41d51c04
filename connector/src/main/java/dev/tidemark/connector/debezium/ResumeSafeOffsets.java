package dev.tidemark.connector.debezium;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Chooses, for each record of a delivered batch, the source offset the engine may store for it, so that a restart
 * never skips a change.
 *
 * <p>Why: Debezium 3.6.1 resumes streaming after the LSN of the last change whose offset was stored, and skips every
 * change at that LSN (DBZ#1554, fixed upstream in 3.7.0.Alpha1). Many changes can share one LSN: a {@code COPY} or a
 * multi-row {@code INSERT} writes many rows per WAL record, and a delete and its tombstone share one too. When a batch
 * ends inside such a group, storing the offset of its last record would lose the rest of the group on a restart.
 *
 * <p>Rule: the records of a batch's trailing group (changes at the batch's last LSN) are stored with the offset of the
 * newest record known to end its group — the last record before the trailing group, in this batch or an earlier
 * one — until a record at another LSN arrives; every other record keeps its own offset. When no such record is known
 * yet in this run, the trailing group is not marked at all, so the engine keeps the offset it already stored. A
 * restart then replays the trailing group (the sink is idempotent), never skips it. Only streamed row changes form
 * groups: snapshot records, Tidemark's position markers and records without an offset keep their own offsets.
 *
 * <p>Pure and not thread-safe: used by the engine's one consumer thread, one call per batch, in delivery order.
 */
final class ResumeSafeOffsets {
    private static final Set<String> ROW_CHANGES = Set.of("INSERT", "UPDATE", "DELETE", "TRUNCATE");

    /** Offset of the newest record known to end its LSN group (null: none yet in this run). */
    private Map<String, ?> safe;
    /** The previous batch's trailing group: its LSN (null: none) and its last record's own offset. */
    private Long pendingLsn;
    private Map<String, ?> pendingOwn;

    /**
     * The offset to store for each record of the next batch, in order: the record's own offset (the same instance), a
     * safe earlier offset instead, or null for "do not mark this record".
     */
    List<Map<String, ?>> plan(List<? extends Map<String, ?>> offsets) {
        int n = offsets.size();
        Long[] group = new Long[n];
        for (int i = 0; i < n; i++) {
            group[i] = groupLsn(offsets.get(i));
        }
        if (pendingLsn != null && (n == 0 || !pendingLsn.equals(group[0]))) {
            safe = pendingOwn; // the previous batch's trailing group ended with it
        }
        pendingLsn = null;
        pendingOwn = null;
        if (n == 0) {
            return List.of();
        }
        int tail = n;
        if (group[n - 1] != null) {
            tail = n - 1;
            while (tail > 0 && Objects.equals(group[tail - 1], group[n - 1])) {
                tail--;
            }
        }
        List<Map<String, ?>> out = new ArrayList<>(n);
        for (int i = 0; i < tail; i++) {
            out.add(offsets.get(i));
        }
        if (tail > 0 && offsets.get(tail - 1) != null) {
            safe = offsets.get(tail - 1);
        }
        for (int i = tail; i < n; i++) {
            out.add(safe);
        }
        if (tail < n) {
            pendingLsn = group[n - 1];
            pendingOwn = offsets.get(n - 1);
        }
        return out;
    }

    /** The LSN a streamed row change shares with its group, or null for a record that forms no group. */
    static Long groupLsn(Map<String, ?> offset) {
        if (offset == null || !ROW_CHANGES.contains(String.valueOf(offset.get("messageType"))) || isSnapshot(offset)) {
            return null;
        }
        Object lsn = offset.get("lsn_proc") != null ? offset.get("lsn_proc") : offset.get("lsn");
        return lsn instanceof Number num ? num.longValue() : null;
    }

    private static boolean isSnapshot(Map<String, ?> offset) {
        Object snapshot = offset.get("snapshot");
        return snapshot != null && !"false".equalsIgnoreCase(snapshot.toString())
                && !Boolean.TRUE.equals(offset.get("snapshot_completed"));
    }
}
