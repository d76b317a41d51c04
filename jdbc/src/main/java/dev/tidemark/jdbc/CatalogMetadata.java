package dev.tidemark.jdbc;

import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Table metadata through standard JDBC ({@code ResultSetMetaData}, {@link DatabaseMetaData}): how every engine but
 * SQLite (which reads its own pragmas) describes a table and finds its indexes. Pure reads, no state.
 */
final class CatalogMetadata {
    private CatalogMetadata() {
    }

    /** The columns from an empty {@code SELECT *}, the primary key from {@link DatabaseMetaData#getPrimaryKeys}. */
    static SourceTable table(Connection c, SourceSql sql, TableId id) throws SQLException {
        List<SourceColumn> cols = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM " + sql.qualified(id) + " WHERE 1 = 0")) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                ColumnKind kind = ColumnKind.ofJdbc(md.getColumnType(i), md.getColumnTypeName(i), md.getPrecision(i));
                int precision = md.getPrecision(i);
                int scale = md.getScale(i);
                // PostgreSQL reports unconstrained numeric as precision 0 or 1000 with scale 0 (or -1 in some drivers)
                boolean unconstrained = kind == ColumnKind.DECIMAL && (precision <= 0 || precision >= 1000);
                cols.add(new SourceColumn(md.getColumnName(i), kind,
                        kind.columnType(unconstrained ? 0 : precision, unconstrained ? -1 : scale),
                        md.isNullable(i) != ResultSetMetaData.columnNoNulls, kind.temporal() ? scale : -1,
                        md.getColumnTypeName(i) + (kind == ColumnKind.DECIMAL && !unconstrained ? "(" + precision + "," + scale + ")" : "")));
            }
        } catch (SQLException e) {
            throw new IllegalArgumentException("cannot read source table " + id + " (" + sql.name() + "): " + e.getMessage(), e);
        }
        TreeMap<Integer, String> pk = new TreeMap<>();
        DatabaseMetaData md = c.getMetaData();
        boolean catalogIsSchema = sql.catalogIsSchema();
        String schema = id.schema().isEmpty() ? null : id.schema();
        try (ResultSet rs = md.getPrimaryKeys(catalogIsSchema ? schema : null, catalogIsSchema ? null : schema, id.table())) {
            while (rs.next()) {
                pk.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
            }
        }
        return new SourceTable(id, cols, new ArrayList<>(pk.values()));
    }

    /** Whether an index of the table has {@code column} (matched ignoring case) as its first column. */
    static boolean hasIndexStartingWith(Connection c, SourceSql sql, SourceTable table, String column) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        boolean catalogIsSchema = sql.catalogIsSchema();
        String schema = table.id().schema().isEmpty() ? null : table.id().schema();
        try (ResultSet rs = md.getIndexInfo(catalogIsSchema ? schema : null, catalogIsSchema ? null : schema, table.id().table(), false, true)) {
            while (rs.next()) {
                if (rs.getInt("ORDINAL_POSITION") == 1 && column.equalsIgnoreCase(rs.getString("COLUMN_NAME"))) {
                    return true;
                }
            }
        }
        return false;
    }
}
