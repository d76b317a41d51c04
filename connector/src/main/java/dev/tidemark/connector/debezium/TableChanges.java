package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the captured tables changed since capture last started: tables added to {@code source.tables}, tables removed
 * from it, and tables dropped and re-created under the same name (another relation OID). Pure.
 *
 * @param added     captured now, not before: snapshotted incrementally
 * @param removed   captured before, not now: no longer captured, their target rows kept
 * @param recreated captured before and now, under another relation: snapshotted incrementally, the old rows removed
 */
record TableChanges(List<TableId> added, List<TableId> removed, List<Recreated> recreated) {
    /** A table whose relation changed from {@code before} to {@code now}. */
    record Recreated(TableId table, long before, long now) {
        @Override
        public String toString() {
            return table + " (relation " + before + ", now " + now + ")";
        }
    }

    TableChanges {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        recreated = List.copyOf(recreated);
    }

    /** The changes from {@code before} to {@code now} (table → relation OID, in configuration order). */
    static TableChanges between(Map<TableId, Long> before, Map<TableId, Long> now) {
        List<TableId> added = new ArrayList<>();
        List<Recreated> recreated = new ArrayList<>();
        now.forEach((t, oid) -> {
            Long old = before.get(t);
            if (old == null) {
                added.add(t);
            } else if (!old.equals(oid)) {
                recreated.add(new Recreated(t, old, oid));
            }
        });
        List<TableId> removed = before.keySet().stream().filter(t -> !now.containsKey(t)).toList();
        return new TableChanges(added, removed, recreated);
    }

    /** The tables to snapshot incrementally: added ones and re-created ones. */
    List<TableId> toSnapshot() {
        List<TableId> out = new ArrayList<>(added);
        recreated.forEach(r -> out.add(r.table()));
        return out;
    }

    boolean none() {
        return added.isEmpty() && removed.isEmpty() && recreated.isEmpty();
    }
}
