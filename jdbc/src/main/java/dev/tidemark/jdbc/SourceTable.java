package dev.tidemark.jdbc;

import dev.tidemark.event.Column;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A source table's columns as its metadata declares them, in table order, and its primary key if it has one. */
public record SourceTable(TableId id, List<SourceColumn> columns, List<String> primaryKey) {
    private static final Pattern PRECISION = Pattern.compile("\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)");

    public SourceTable {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
    }

    public Optional<SourceColumn> column(String name) {
        return columns.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    public SourceColumn require(String name, String role) {
        return column(name).orElseThrow(() -> new IllegalArgumentException("table " + id + " has no column " + name
                + " (given as " + role + "); its columns are " + columns.stream().map(SourceColumn::name).toList()));
    }

    /** The event schema of this table with {@code keyColumns} as the key. */
    public RowSchema schema(List<String> keyColumns) {
        List<Column> cols = new ArrayList<>();
        for (SourceColumn c : columns) {
            cols.add(new Column(c.name(), c.type(), c.nullable() && !keyColumns.contains(c.name())));
        }
        return new RowSchema(cols, keyColumns);
    }

    public static SourceTable describe(Connection c, SourceSql sql, TableId id) throws SQLException {
        SourceTable t = sql instanceof SourceSql.Sqlite ? sqlite(c, sql, id) : jdbc(c, sql, id);
        if (t.columns.isEmpty()) {
            throw new IllegalArgumentException("source table " + id + " does not exist (or has no columns) in the " + sql.name() + " source");
        }
        return t;
    }

    private static SourceTable sqlite(Connection c, SourceSql sql, TableId id) throws SQLException {
        String schema = id.schema().isEmpty() ? "main" : id.schema();
        List<SourceColumn> cols = new ArrayList<>();
        TreeMap<Integer, String> pk = new TreeMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA " + sql.quote(schema) + ".table_info(" + sql.quote(id.table()) + ")")) {
            while (rs.next()) {
                String name = rs.getString("name");
                String declared = rs.getString("type");
                ColumnKind kind = ColumnKind.ofSqliteDeclared(declared);
                int precision = -1;
                int scale = -1;
                Matcher m = PRECISION.matcher(declared == null ? "" : declared);
                if (m.find()) {
                    precision = Integer.parseInt(m.group(1));
                    scale = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
                }
                cols.add(new SourceColumn(name, kind, kind.columnType(precision, scale), rs.getInt("notnull") == 0, -1,
                        declared == null || declared.isEmpty() ? "(no type)" : declared));
                if (rs.getInt("pk") > 0) {
                    pk.put(rs.getInt("pk"), name);
                }
            }
        }
        return new SourceTable(id, cols, new ArrayList<>(pk.values()));
    }

    private static SourceTable jdbc(Connection c, SourceSql sql, TableId id) throws SQLException {
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
        boolean catalogIsSchema = sql instanceof SourceSql.MariaDb;
        String schema = id.schema().isEmpty() ? null : id.schema();
        try (ResultSet rs = md.getPrimaryKeys(catalogIsSchema ? schema : null, catalogIsSchema ? null : schema, id.table())) {
            while (rs.next()) {
                pk.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
            }
        }
        return new SourceTable(id, cols, new ArrayList<>(pk.values()));
    }
}
