package dev.tidemark.sink.jdbc;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each column of a target table was created or last changed from, kept in {@value SinkOptions#COLUMNS_TABLE}
 * (connect type, logical type, scale, precision, key flag) and cached per table until {@link #forget}. Writes run in
 * the caller's transaction; the table itself is created by {@link TargetTables}.
 */
final class RecordedColumns {
    /** A column as recorded when Tidemark created or changed it. */
    record Recorded(ColumnType type, boolean key) {
    }

    private final Connection connection;
    private final Dialect dialect;
    private final Map<String, Map<String, Recorded>> recorded = new HashMap<>();

    RecordedColumns(Connection connection, Dialect dialect) {
        this.connection = connection;
        this.dialect = dialect;
    }

    /** The recorded columns of {@code table} by name; empty for a table Tidemark did not create or change. */
    Map<String, Recorded> of(String table) throws SQLException {
        Map<String, Recorded> rec = recorded.get(table);
        if (rec != null) {
            return rec;
        }
        rec = new LinkedHashMap<>();
        String sql = "SELECT " + q("column_name") + ", " + q("connect_type") + ", " + q("logical_name") + ", " + q("parameters")
                + ", " + q("is_key") + " FROM " + q(SinkOptions.COLUMNS_TABLE) + " WHERE " + q("table_name") + " = ?";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rec.put(rs.getString(1), new Recorded(new ColumnType(rs.getString(2), rs.getString(3),
                            RecordedTypes.decodeParameters(rs.getString(4))), rs.getLong(5) != 0));
                }
            }
        }
        recorded.put(table, rec);
        return rec;
    }

    /** Starts the record of a table just created: nothing recorded before is read for it. */
    void created(String table) {
        recorded.put(table, new LinkedHashMap<>());
    }

    /** Records (or replaces) what {@code column} of {@code table} is now. */
    void record(String table, String column, ColumnType type, boolean key) throws SQLException {
        String sql = dialect.upsert(SinkOptions.COLUMNS_TABLE,
                List.of("table_name", "column_name", "connect_type", "logical_name", "parameters", "is_key"),
                List.of("table_name", "column_name"), List.of("connect_type", "logical_name", "parameters", "is_key"), null);
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, table);
            ps.setString(2, column);
            ps.setString(3, type.connectType());
            ps.setString(4, type.logicalName());
            ps.setString(5, RecordedTypes.encodeParameters(type));
            ps.setLong(6, key ? 1 : 0);
            ps.executeUpdate();
        }
        recorded.computeIfAbsent(table, t -> new LinkedHashMap<>()).put(column, new Recorded(type, key));
    }

    /** Moves the record of column {@code from} to {@code to}; forgets what was read. */
    void rename(String table, String from, String to) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("UPDATE " + q(SinkOptions.COLUMNS_TABLE) + " SET " + q("column_name")
                + " = ? WHERE " + q("table_name") + " = ? AND " + q("column_name") + " = ?")) {
            ps.setString(1, to);
            ps.setString(2, table);
            ps.setString(3, from);
            ps.executeUpdate();
        }
        recorded.clear();
    }

    void forget() {
        recorded.clear();
    }

    private String q(String identifier) {
        return dialect.quote(identifier);
    }
}
