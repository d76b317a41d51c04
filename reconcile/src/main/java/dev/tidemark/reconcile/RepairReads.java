package dev.tidemark.reconcile;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.Database;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.SourceSql;
import dev.tidemark.jdbc.ValueKind;
import dev.tidemark.sink.jdbc.RecordedTypes;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reads a {@link Repair} makes: the target's recorded column types and stored row positions, the source's current
 * rows. Each read ends its transaction (a rollback when auto-commit is off), so no snapshot is held between batches.
 * Keys and values are bound, identifiers quoted.
 */
final class RepairReads {
    private RepairReads() {
    }

    /**
     * Each column's type as the sink recorded it when it created the target column ({@value SinkOptions#COLUMNS_TABLE});
     * empty when the target has no such table.
     */
    static Map<String, ColumnType> recordedTypes(Connection tgt, Database engine, String table) {
        Map<String, ColumnType> out = new HashMap<>();
        String sql = "SELECT " + engine.quote("column_name") + ", " + engine.quote("connect_type") + ", " + engine.quote("logical_name")
                + ", " + engine.quote("parameters") + " FROM " + engine.quote(SinkOptions.COLUMNS_TABLE) + " WHERE "
                + engine.quote("table_name") + " = ?";
        try (PreparedStatement ps = tgt.prepareStatement(sql)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), new ColumnType(rs.getString(2), rs.getString(3), RecordedTypes.decodeParameters(rs.getString(4))));
                }
            }
        } catch (SQLException e) {
            // no metadata table: a target Tidemark did not create; the source's types apply
        }
        endRead(tgt);
        return out;
    }

    private static void endRead(Connection c) {
        try {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
        } catch (SQLException ignored) {
            // nothing was written
        }
    }

    /** The source's current rows for {@code keys}, as event values; keys the source no longer has are absent. */
    static List<Map<String, Object>> sourceRows(Connection src, Database engine, TableShape shape, List<RowKey> keys) throws SQLException {
        SourceSql sql = engine;
        List<String> cols = shape.columns().stream().map(c -> engine.quote(c.name())).toList();
        String table = shape.source().id().schema().isEmpty() ? engine.quote(shape.source().id().table())
                : engine.quote(shape.source().id().schema()) + "." + engine.quote(shape.source().id().table());
        List<Map<String, Object>> out = new ArrayList<>();
        KeyQuery q = KeyQuery.of(engine, shape, true, keys);
        try (PreparedStatement ps = src.prepareStatement("SELECT " + String.join(", ", cols) + " FROM " + table + " WHERE " + q.where())) {
            q.bind(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 0; i < shape.columns().size(); i++) {
                        SourceColumn c = shape.columns().get(i).sourceColumn();
                        row.put(c.name(), sql.read(rs, i + 1, c));
                    }
                    out.add(row);
                }
            }
        }
        endRead(src);
        return out;
    }

    /** The stored position of each key the target holds (soft-deleted rows included); null where it has none. */
    static Map<RowKey, String> storedPositions(Connection tgt, Database engine, TableShape shape, String positionColumn,
                                                      List<RowKey> keys) throws SQLException {
        Map<RowKey, String> out = new HashMap<>();
        boolean hasPosition = shape.target().column(positionColumn).isPresent();
        if (!hasPosition) {
            return out;
        }
        List<String> keyCols = new ArrayList<>();
        for (int i : shape.keyIndex()) {
            keyCols.add(engine.quote(shape.columns().get(i).targetName()));
        }
        KeyQuery q = KeyQuery.of(engine, shape, false, keys);
        String sql = "SELECT " + String.join(", ", keyCols) + ", " + engine.quote(positionColumn) + " FROM " + engine.quote(shape.targetTable())
                + " WHERE " + q.where();
        try (PreparedStatement ps = tgt.prepareStatement(sql)) {
            q.bind(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
                List<ValueKind> kinds = shape.keyKinds();
                while (rs.next()) {
                    List<String> key = new ArrayList<>();
                    for (int i = 0; i < kinds.size(); i++) {
                        key.add(CanonicalValues.readText(rs, i + 1, kinds.get(i)));
                    }
                    out.put(new RowKey(key), rs.getString(kinds.size() + 1));
                }
            }
        }
        endRead(tgt);
        return out;
    }
}
