package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.ColumnKind;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.SourceTable;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQLite's table metadata for {@link SqliteSource}, from SQLite's pragmas ({@code table_info}, {@code index_list},
 * {@code index_info}): declared types as written, which is what SQLite's type affinity goes by. Pure reads, no state.
 */
final class SqliteCatalog {
    private static final Pattern PRECISION = Pattern.compile("\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)");

    private SqliteCatalog() {
    }

    /** The columns with their declared types, the primary key in key order. */
    static SourceTable table(Connection c, UnaryOperator<String> quote, TableId id) throws SQLException {
        String schema = id.schema().isEmpty() ? "main" : id.schema();
        List<SourceColumn> cols = new ArrayList<>();
        TreeMap<Integer, String> pk = new TreeMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA " + quote.apply(schema) + ".table_info(" + quote.apply(id.table()) + ")")) {
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

    /** Whether an index of the table (or the rowid, for an INTEGER PRIMARY KEY) has {@code column} first. */
    static boolean hasIndexStartingWith(Connection c, UnaryOperator<String> quote, SourceTable table, String column) throws SQLException {
        if (table.primaryKey().equals(List.of(column)) && table.column(column).map(col -> col.declaredType().equalsIgnoreCase("INTEGER")).orElse(false)) {
            return true; // INTEGER PRIMARY KEY is the rowid: indexed by construction
        }
        String schema = table.id().schema().isEmpty() ? "main" : table.id().schema();
        List<String> indexes = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA " + quote.apply(schema) + ".index_list(" + quote.apply(table.id().table()) + ")")) {
            while (rs.next()) {
                indexes.add(rs.getString("name"));
            }
        }
        for (String ix : indexes) {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("PRAGMA " + quote.apply(schema) + ".index_info(" + quote.apply(ix) + ")")) {
                while (rs.next()) {
                    if (rs.getInt("seqno") == 0 && column.equals(rs.getString("name"))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
