package dev.tidemark.sink.jdbc;

import dev.tidemark.sink.event.Column;
import dev.tidemark.sink.event.RowSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Knows which target tables exist and their columns; creates a table from the first event schema that needs it
 * and adds columns that appear later. Runs inside the caller's transaction (DDL is transactional on SQLite and
 * PostgreSQL), so a rolled-back batch also rolls back its DDL: call {@link #forget()} after a rollback.
 */
final class TargetTables {
    private final Connection connection;
    private final Dialect dialect;
    private final String positionColumn;
    private final Map<String, Set<String>> known = new HashMap<>();

    TargetTables(Connection connection, Dialect dialect, String positionColumn) {
        this.connection = connection;
        this.dialect = dialect;
        this.positionColumn = positionColumn;
    }

    /** The table's columns, or empty when it does not exist. */
    Optional<Set<String>> columns(String table) throws SQLException {
        Set<String> cols = known.get(table);
        if (cols == null) {
            cols = new LinkedHashSet<>();
            try (PreparedStatement ps = connection.prepareStatement(dialect.columnsQuery())) {
                ps.setString(1, table);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        cols.add(rs.getString(1));
                    }
                }
            }
            if (cols.isEmpty()) {
                return Optional.empty();
            }
            known.put(table, cols);
        }
        return Optional.of(cols);
    }

    /**
     * Creates the table or adds missing columns so that every column of {@code schema} exists.
     *
     * @return whether any DDL ran
     */
    boolean ensure(String table, RowSchema schema) throws SQLException {
        Optional<Set<String>> existing = columns(table);
        if (existing.isEmpty()) {
            create(table, schema);
            return true;
        }
        Set<String> cols = existing.get();
        boolean changed = false;
        for (Column c : schema.columns()) {
            if (!cols.contains(c.name())) {
                execute("ALTER TABLE " + dialect.quote(table) + " ADD COLUMN " + dialect.quote(c.name()) + " "
                        + dialect.columnType(c.type(), false));
                cols.add(c.name());
                changed = true;
            }
        }
        return changed;
    }

    private void create(String table, RowSchema schema) throws SQLException {
        List<String> defs = new ArrayList<>();
        for (Column c : schema.columns()) {
            boolean key = schema.keyColumns().contains(c.name());
            defs.add(dialect.quote(c.name()) + " " + dialect.columnType(c.type(), key) + (key ? " NOT NULL" : ""));
        }
        defs.add(dialect.quote(positionColumn) + " " + dialect.positionType());
        List<String> keys = schema.keyColumns().stream().map(dialect::quote).toList();
        defs.add("PRIMARY KEY (" + String.join(", ", keys) + ")");
        execute("CREATE TABLE " + dialect.quote(table) + " (" + String.join(", ", defs) + ")");
        Set<String> cols = new LinkedHashSet<>();
        schema.columns().forEach(c -> cols.add(c.name()));
        cols.add(positionColumn);
        known.put(table, cols);
    }

    private void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    void forget() {
        known.clear();
    }
}
