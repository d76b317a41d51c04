package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.UsageException;

import dev.tidemark.event.RowSchema;
import dev.tidemark.jdbc.ColumnKind;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.SourceSql;
import dev.tidemark.jdbc.SourceTable;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * A source table as one run polls it: its settings, its described columns, the key chunks are paged and rows
 * upserted by, the schema events carry and the cursor's primary column. {@link #describe} checks the settings
 * against the table before anything is read.
 *
 * @param settings the table's watermark settings
 * @param source   the table as described by the source database
 * @param keys     the key columns: the settings' or else the primary key
 * @param schema   the schema of the events, keyed by {@code keys}
 * @param primary  the cursor's primary column (the timestamp or the id)
 */
record PolledTable(WatermarkTable settings, SourceTable source, List<String> keys, RowSchema schema, SourceColumn primary) {

    /**
     * Describes {@code t} in the source and checks it: a key exists, the key, cursor and soft-delete columns exist,
     * an id cursor is an integer, a timestamp cursor is temporal, a tie-break column is an integer.
     */
    static PolledTable describe(Connection connection, SourceSql sql, WatermarkTable t) throws SQLException {
        SourceTable src = SourceTable.describe(connection, sql, t.table());
        List<String> keys = t.keyColumns().isEmpty() ? src.primaryKey() : t.keyColumns();
        if (keys.isEmpty()) {
            throw new UsageException("table " + t.table() + " has no primary key: give the key columns (--key)");
        }
        keys.forEach(k -> src.require(k, "key"));
        SourceColumn primary = src.require(t.cursor().primaryColumn(), "cursor");
        if (t.cursor() instanceof Cursor.Id ? primary.kind() != ColumnKind.INTEGER : !primary.kind().temporal()) {
            throw new UsageException("table " + t.table() + ": cursor column " + primary.name() + " is "
                    + primary.declaredType() + ", which cannot be a " + t.cursor().kind() + " cursor"
                    + (primary.kind() == ColumnKind.INTEGER ? " (use --cursor-kind id)" : ""));
        }
        if (t.cursor() instanceof Cursor.TimestampId ti && src.require(ti.idColumn(), "tie-break id").kind() != ColumnKind.INTEGER) {
            throw new UsageException("table " + t.table() + ": tie-break column " + ti.idColumn() + " must be an integer");
        }
        if (t.softDeleteColumn() != null) {
            src.require(t.softDeleteColumn(), "soft-delete flag");
        }
        return new PolledTable(t, src, keys, src.schema(keys), primary);
    }

    /** The tie-break column of a timestamp+id cursor, null for other cursors. */
    String tieBreakColumn() {
        return settings.cursor() instanceof Cursor.TimestampId ti ? ti.idColumn() : null;
    }
}
