package dev.tidemark.sink.jdbc;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One target table's share of a run of changes ({@link BatchPlan.Changes}), grouped the way it is written: upserts by
 * shape (the schema's column list, one shared instance per decoded schema, and the unchanged-TOAST columns, almost
 * always none), each group in one statement or batch, in the order the shapes first appear; then the deletes. Pure.
 *
 * @param upserts the upsert groups, each of one shape
 * @param deletes the deletes, in order
 */
record TableRun(List<List<ChangeEvent.Upsert>> upserts, List<ChangeEvent.Delete> deletes) {
    TableRun {
        upserts = List.copyOf(upserts);
        deletes = List.copyOf(deletes);
    }

    /** {@code events} grouped by the target table {@code names} gives each, tables in the order they first appear. */
    static Map<String, TableRun> byTable(List<ChangeEvent> events, TargetTableNames names) {
        Map<String, List<ChangeEvent>> byTable = new LinkedHashMap<>();
        for (ChangeEvent e : events) {
            byTable.computeIfAbsent(names.of(e.table()), k -> new ArrayList<>()).add(e);
        }
        Map<String, TableRun> out = new LinkedHashMap<>();
        byTable.forEach((table, changes) -> out.put(table, of(changes)));
        return out;
    }

    /**
     * {@code events} (upserts and deletes of one table) grouped by shape.
     *
     * @throws IllegalStateException for a truncate, which never is part of a run
     */
    static TableRun of(List<ChangeEvent> events) {
        Map<List<Column>, Map<List<String>, List<ChangeEvent.Upsert>>> byShape = new IdentityHashMap<>();
        List<List<ChangeEvent.Upsert>> groups = new ArrayList<>();
        List<ChangeEvent.Delete> deletes = new ArrayList<>();
        for (ChangeEvent e : events) {
            if (e instanceof ChangeEvent.Upsert u) {
                byShape.computeIfAbsent(u.schema().columns(), k -> new HashMap<>())
                        .computeIfAbsent(u.unavailableColumns(), k -> {
                            List<ChangeEvent.Upsert> group = new ArrayList<>();
                            groups.add(group);
                            return group;
                        }).add(u);
            } else if (e instanceof ChangeEvent.Delete d) {
                deletes.add(d);
            } else {
                throw new IllegalStateException("truncate inside a change run");
            }
        }
        return new TableRun(groups, deletes);
    }
}
