package dev.tidemark.jdbc;

import dev.tidemark.event.Column;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A source table's columns as its metadata declares them, in table order, and its primary key if it has one. */
public record SourceTable(TableId id, List<SourceColumn> columns, List<String> primaryKey) {
    public SourceTable {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
    }

    public Optional<SourceColumn> column(String name) {
        return columns.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    public SourceColumn require(String name, String role) {
        return column(name).orElseThrow(() -> new UsageException("table " + id + " has no column " + name
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

    /**
     * Reads a table's metadata through the engine's source facet.
     *
     * @throws UsageException naming the table and engine when it does not exist or has no columns
     */
    public static SourceTable describe(Connection c, SourceSql sql, TableId id) throws SQLException {
        SourceTable t = sql.readTable(c, id);
        if (t.columns.isEmpty()) {
            throw new UsageException("source table " + id + " does not exist (or has no columns) in the " + sql.name() + " source");
        }
        return t;
    }
}
