package dev.tidemark.sink.jdbc;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The schema changes applied to one target table, in source order, and how a row written before one of them at the
 * source is adapted to the target after it: a renamed column takes its new name; a column added since with a
 * constant default gets that value (as every row that existed then did at the source); a non-key column retyped
 * since is left out (its old-type value may not fit the target column, which the snapshot requested after the type
 * change rewrites in every row, so the row writes its other columns only); a row written before a change that retyped
 * one of its key columns is left out whole ({@link #precedesKeyRetype}). Rows at or after a change,
 * and rows without a log position (repairs, watermark polling: read as the source is now), are left as they are.
 * Pure apart from a cache of adapted schemas (rows of one schema share one adapted schema instance, so the sink still
 * groups them into one statement).
 */
final class SchemaHistory {
    private final List<ChangeEvent.SchemaChange> changes;
    private final Map<RowSchema, Map<Integer, RowSchema>> adapted = new IdentityHashMap<>();

    SchemaHistory(List<ChangeEvent.SchemaChange> changes) {
        this.changes = new ArrayList<>(changes);
        this.changes.sort(Comparator.comparing(ChangeEvent.SchemaChange::position));
    }

    boolean contains(SourcePosition position) {
        String p = position.encode();
        return changes.stream().anyMatch(c -> c.position().encode().equals(p));
    }

    void add(ChangeEvent.SchemaChange change) {
        changes.add(change);
        changes.sort(Comparator.comparing(ChangeEvent.SchemaChange::position));
        adapted.clear();
    }

    /** {@code row} as the target after every recorded change it precedes needs it. */
    ChangeEvent.Upsert adapt(ChangeEvent.Upsert row) {
        if (changes.isEmpty()) {
            return row;
        }
        int first = -1;
        for (int i = 0; i < changes.size(); i++) {
            if (precedes(row.position(), changes.get(i).position())) {
                first = i;
                break;
            }
        }
        if (first < 0) {
            return row;
        }
        Map<String, Object> values = new LinkedHashMap<>(row.row());
        Map<String, Object> key = new LinkedHashMap<>(row.key());
        for (int i = first; i < changes.size(); i++) {
            for (ChangeEvent.ColumnChange c : changes.get(i).changes()) {
                if (c instanceof ChangeEvent.ColumnChange.Renamed r && values.containsKey(r.from()) && !values.containsKey(r.to())) {
                    values = renamed(values, r.from(), r.to());
                    if (key.containsKey(r.from())) {
                        key = renamed(key, r.from(), r.to());
                    }
                } else if (c instanceof ChangeEvent.ColumnChange.Added a && !values.containsKey(a.column())) {
                    values.put(a.column(), DefaultValues.of(a.type(), a.value()));
                } else if (c instanceof ChangeEvent.ColumnChange.Retyped t && !key.containsKey(t.column())) {
                    values.remove(t.column());
                }
            }
        }
        int from = first;
        RowSchema schema = adapted.computeIfAbsent(row.schema(), s -> new java.util.HashMap<>())
                .computeIfAbsent(from, f -> schemaFrom(row.schema(), f));
        return new ChangeEvent.Upsert(row.table(), key, schema, values, row.position(), row.op());
    }

    private RowSchema schemaFrom(RowSchema schema, int first) {
        List<Column> columns = new ArrayList<>(schema.columns());
        List<String> keys = new ArrayList<>(schema.keyColumns());
        for (int i = first; i < changes.size(); i++) {
            for (ChangeEvent.ColumnChange c : changes.get(i).changes()) {
                if (c instanceof ChangeEvent.ColumnChange.Renamed r && has(columns, r.from()) && !has(columns, r.to())) {
                    columns.replaceAll(col -> col.name().equals(r.from()) ? new Column(r.to(), col.type(), col.optional()) : col);
                    keys.replaceAll(k -> k.equals(r.from()) ? r.to() : k);
                } else if (c instanceof ChangeEvent.ColumnChange.Added a && !has(columns, a.column())) {
                    columns.add(new Column(a.column(), a.type(), true));
                } else if (c instanceof ChangeEvent.ColumnChange.Retyped t && !keys.contains(t.column())) {
                    columns.removeIf(col -> col.name().equals(t.column()));
                }
            }
        }
        return new RowSchema(columns, keys);
    }

    private static boolean has(List<Column> columns, String name) {
        return columns.stream().anyMatch(c -> c.name().equals(name));
    }

    private static Map<String, Object> renamed(Map<String, Object> values, String from, String to) {
        Map<String, Object> out = new LinkedHashMap<>();
        values.forEach((k, v) -> out.put(k.equals(from) ? to : k, v));
        return out;
    }

    /**
     * Whether {@code row} was written before a change that retyped one of its key columns (followed through renames):
     * its key may not fit the target key column after the change, and the snapshot requested after the change re-reads
     * every row, so the row is left to it.
     */
    boolean precedesKeyRetype(ChangeEvent.Upsert row) {
        java.util.Set<String> key = new java.util.HashSet<>(row.key().keySet());
        for (ChangeEvent.SchemaChange sc : changes) {
            if (!precedes(row.position(), sc.position())) {
                continue;
            }
            for (ChangeEvent.ColumnChange c : sc.changes()) {
                if (c instanceof ChangeEvent.ColumnChange.Renamed r && key.remove(r.from())) {
                    key.add(r.to());
                } else if (c instanceof ChangeEvent.ColumnChange.Retyped t && key.contains(t.column())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The columns retyped at the source ({@link ChangeEvent.ColumnChange.Retyped}) by a change that a row at
     * {@code row} does not precede: such a row carries the new type, which the target column may take.
     */
    java.util.Set<String> retypedFor(SourcePosition row) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (ChangeEvent.SchemaChange sc : changes) {
            if (!precedes(row, sc.position())) {
                sc.changes().stream().filter(ChangeEvent.ColumnChange.Retyped.class::isInstance)
                        .forEach(c -> out.add(((ChangeEvent.ColumnChange.Retyped) c).column()));
            }
        }
        return out;
    }

    /**
     * Whether a row at {@code row} was written before the change at {@code change}: both log positions, and the row's
     * sorts first. A change in the first transaction after a snapshot ({@link SourcePosition.Phase#FIRST}, ordering
     * LSN not yet known) follows every snapshot row and the earlier changes of its own transaction.
     */
    static boolean precedes(SourcePosition row, SourcePosition change) {
        if (!isLog(row) || !isLog(change)) {
            return false;
        }
        if (change instanceof SourcePosition.Wal c && c.phase() == SourcePosition.Phase.FIRST && row instanceof SourcePosition.Wal r) {
            return switch (r.phase()) {
                case SNAPSHOT -> true;
                case FIRST -> r.change() < c.change();
                case STREAM -> false;
            };
        }
        return row.compareTo(change) < 0;
    }

    private static boolean isLog(SourcePosition p) {
        return p instanceof SourcePosition.Wal || p instanceof SourcePosition.Lsn;
    }
}
