package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.SetWrites;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.SourcePosition;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes one table's delete events inside the sink's data transaction (see {@link JdbcChangeSink}): hard deletes
 * as one set-based statement per key shape where the engine has that capability ({@link Dialect#setWrites()}), else
 * row by row (the strategy is chosen once, when the writer is made); soft deletes as upserts of the deleted flag. Every delete is guarded by the row's stored position, except tombstones (no position). Not
 * thread-safe: one per sink connection.
 */
final class RowDeletes {
    private static final ColumnType BOOLEAN = ColumnType.of("boolean");

    private final RowWrites sink;
    private final TableWriter hardDeletes;

    /** How a table's deletes reach it. */
    @FunctionalInterface
    private interface TableWriter {
        int apply(String table, List<ChangeEvent.Delete> deletes) throws SQLException;
    }

    RowDeletes(RowWrites sink) {
        this.sink = sink;
        this.hardDeletes = sink.dialect().setWrites().<TableWriter>map(set -> (t, d) -> deleteMany(set, t, d)).orElse(this::rowByRow);
    }

    /** Applies a table's deletes (hard or soft, per the options) inside the caller's transaction; returns how many. */
    int apply(String table, List<ChangeEvent.Delete> deletes) throws SQLException {
        return sink.options().softDeletes() ? rowByRow(table, deletes) : hardDeletes.apply(table, deletes);
    }

    /** Each delete as its own statement in a batch per statement text (soft deletes always). */
    private int rowByRow(String table, List<ChangeEvent.Delete> deletes) throws SQLException {
        int n = 0;
        Map<String, PreparedStatement> used = new LinkedHashMap<>();
        for (ChangeEvent.Delete d : deletes) {
            boolean guarded = !(d.position() instanceof SourcePosition.Unknown);
            if (sink.options().softDeletes()) {
                softDelete(table, d, guarded, used);
                n++;
                continue;
            }
            String sql = deleteSql(table, d.key().keySet(), guarded);
            PreparedStatement ps = sink.statements().get(sql);
            used.put(sql, ps);
            int i = 1;
            for (Object v : d.key().values()) {
                sink.dialect().bind(ps, i++, v, ColumnType.of("string"));
            }
            if (guarded) {
                bindPosition(ps, i, d.position());
            }
            ps.addBatch();
            n++;
        }
        for (PreparedStatement ps : used.values()) {
            ps.executeBatch();
        }
        return n;
    }

    /**
     * Hard deletes as one set-based statement per key shape (engines with {@link SetWrites#deleteMany}): the keys and
     * positions go as text arrays, cast on the server to the key columns' own types.
     */
    private int deleteMany(SetWrites set, String table, List<ChangeEvent.Delete> deletes) throws SQLException {
        Map<List<String>, List<ChangeEvent.Delete>> byKeys = new LinkedHashMap<>();
        for (ChangeEvent.Delete d : deletes) {
            byKeys.computeIfAbsent(List.copyOf(d.key().keySet()), k -> new ArrayList<>()).add(d);
        }
        for (Map.Entry<List<String>, List<ChangeEvent.Delete>> e : byKeys.entrySet()) {
            List<String> keys = e.getKey();
            List<String> keyTypes = sink.tables().sqlTypes(table, keys, "key column of a delete");
            List<ChangeEvent.Delete> group = e.getValue();
            String[][] keyValues = new String[keys.size()][group.size()];
            String[] positions = new String[group.size()];
            for (int row = 0; row < group.size(); row++) {
                ChangeEvent.Delete d = group.get(row);
                int col = 0;
                for (Object v : d.key().values()) {
                    keyValues[col++][row] = set.arrayElement(v);
                }
                String rendered = d.position().encode();
                positions[row] = rendered.isEmpty() ? null : rendered;
            }
            PreparedStatement ps = sink.statements().get(set.deleteMany(table, keys, keyTypes, sink.options().positionColumn()));
            int i = 1;
            for (String[] column : keyValues) {
                ps.setArray(i++, sink.connection().createArrayOf("text", column));
            }
            ps.setArray(i, sink.connection().createArrayOf("text", positions));
            ps.executeUpdate();
        }
        return deletes.size();
    }

    private final Map<List<Object>, String> deleteSqls = new HashMap<>();

    /** Example: {@code DELETE FROM "orders" WHERE "id" = ? AND ("__tidemark_position" IS NULL OR "__tidemark_position" <= ?)}. */
    private String deleteSql(String table, Set<String> keys, boolean guarded) {
        return deleteSqls.computeIfAbsent(List.of(table, keys, guarded), k -> {
            StringBuilder sql = new StringBuilder("DELETE FROM ").append(q(table)).append(" WHERE ");
            int i = 0;
            for (String key : keys) {
                sql.append(i++ == 0 ? "" : " AND ").append(q(key)).append(" = ?");
            }
            if (guarded) {
                sql.append(" AND (").append(q(sink.options().positionColumn())).append(" IS NULL OR ")
                        .append(q(sink.options().positionColumn())).append(" <= ?)");
            }
            return sql.toString();
        });
    }

    /**
     * Soft delete: the key stays with {@code __tidemark_deleted} = true and the delete's position, so an older
     * insert replayed later is refused by the position guard instead of resurrecting the row. A tombstone (no
     * position) only marks an existing row.
     */
    private void softDelete(String table, ChangeEvent.Delete d, boolean guarded, Map<String, PreparedStatement> used) throws SQLException {
        List<String> keys = new ArrayList<>(d.key().keySet());
        String sql;
        if (guarded) {
            List<String> columns = new ArrayList<>(keys);
            columns.add(SinkOptions.DELETED_COLUMN);
            columns.add(sink.options().positionColumn());
            String position = sink.options().positionColumn();
            sql = sink.dialect().upsert(table, columns, keys, List.of(SinkOptions.DELETED_COLUMN, position), position);
        } else {
            StringBuilder b = new StringBuilder("UPDATE ").append(q(table)).append(" SET ").append(q(SinkOptions.DELETED_COLUMN))
                    .append(" = ? WHERE ");
            for (int i = 0; i < keys.size(); i++) {
                b.append(i == 0 ? "" : " AND ").append(q(keys.get(i))).append(" = ?");
            }
            sql = b.toString();
        }
        PreparedStatement ps = sink.statements().get(sql);
        used.put(sql, ps);
        int i = 1;
        if (!guarded) {
            sink.dialect().bind(ps, i++, Boolean.TRUE, BOOLEAN);
        }
        for (Object v : d.key().values()) {
            sink.dialect().bind(ps, i++, v, ColumnType.of("string"));
        }
        if (guarded) {
            sink.dialect().bind(ps, i++, Boolean.TRUE, BOOLEAN);
            bindPosition(ps, i, d.position());
        }
        ps.addBatch();
    }

    private void bindPosition(PreparedStatement ps, int index, SourcePosition position) throws SQLException {
        String rendered = position.encode();
        sink.dialect().bind(ps, index, rendered.isEmpty() ? null : rendered, ColumnType.of("string"));
    }

    private String q(String identifier) {
        return sink.dialect().quote(identifier);
    }
}
