package dev.tidemark.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * SQLite cannot change a primary key column's declared type in place, so the table is rebuilt: a new table like the old
 * one but for that column's type, every row copied with the column cast ({@code CAST(c AS type)}), the old table
 * dropped, the new one renamed to the old name, and the old table's own indexes and triggers created again. The copy
 * fails where two keys become one after the cast (a {@code UNIQUE} violation); the statements change nothing then.
 */
public final class SqliteKeyRetype {
    /** A column as {@code pragma_table_info} lists it: declared type, {@code NOT NULL}, default, place in the key (0: none). */
    record TableColumn(String name, String type, boolean notNull, String defaultSql, int keyPosition) {
    }

    private SqliteKeyRetype() {
    }

    /** The statements that rebuild {@code table} with {@code column} of {@code type}, read from the table's catalog. */
    public static List<String> statements(Connection connection, String table, String column, String type, UnaryOperator<String> quote)
            throws SQLException {
        List<TableColumn> columns = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(new TableColumn(rs.getString(1), rs.getString(2), rs.getInt(3) != 0, rs.getString(4), rs.getInt(5)));
                }
            }
        }
        List<String> own = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT sql FROM sqlite_master WHERE tbl_name = ? "
                + "AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    own.add(rs.getString(1));
                }
            }
        }
        return statements(table, columns, own, column, type, quote);
    }

    /** Pure: the statements for a table of {@code columns} with its own {@code indexesAndTriggers} (their SQL). */
    static List<String> statements(String table, List<TableColumn> columns, List<String> indexesAndTriggers, String column, String type,
            UnaryOperator<String> quote) {
        String next = "tidemark_retype_" + table;
        List<String> defs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        TreeMap<Integer, String> key = new TreeMap<>();
        for (TableColumn c : columns) {
            boolean retyped = c.name().equals(column);
            String declared = retyped ? type : c.type();
            defs.add(quote.apply(c.name()) + (declared.isEmpty() ? "" : " " + declared) + (c.notNull() ? " NOT NULL" : "")
                    + (c.defaultSql() == null ? "" : " DEFAULT " + c.defaultSql()));
            names.add(quote.apply(c.name()));
            values.add(retyped ? "CAST(" + quote.apply(c.name()) + " AS " + type + ")" : quote.apply(c.name()));
            if (c.keyPosition() > 0) {
                key.put(c.keyPosition(), quote.apply(c.name()));
            }
        }
        defs.add("PRIMARY KEY (" + String.join(", ", key.values()) + ")");
        List<String> out = new ArrayList<>();
        out.add("CREATE TABLE " + quote.apply(next) + " (" + String.join(", ", defs) + ")");
        out.add("INSERT INTO " + quote.apply(next) + " (" + String.join(", ", names) + ") SELECT " + String.join(", ", values)
                + " FROM " + quote.apply(table));
        out.add("DROP TABLE " + quote.apply(table));
        out.add("ALTER TABLE " + quote.apply(next) + " RENAME TO " + quote.apply(table));
        out.addAll(indexesAndTriggers);
        return out;
    }
}
