package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.UsageException;

import dev.tidemark.event.RowSchema;
import dev.tidemark.jdbc.ColumnKind;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.SourceSql;
import dev.tidemark.jdbc.SourceTable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
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
 * @param primary  the cursor's primary column (the timestamp or the id); a SQLite TEXT column of ISO-8601 text of one
 *                 shape appears here with a temporal kind (in {@code source} it stays TEXT, so events carry the text)
 */
record PolledTable(WatermarkTable settings, SourceTable source, List<String> keys, RowSchema schema, SourceColumn primary) {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(PolledTable.class);

    /**
     * Describes {@code t} in the source and checks it: a key exists, the key, cursor and soft-delete columns exist,
     * an id cursor is an integer, a timestamp cursor is temporal (or SQLite text of one ISO-8601 shape), a tie-break
     * column is an integer.
     */
    static PolledTable describe(Connection connection, SourceSql sql, WatermarkTable t) throws SQLException {
        SourceTable src = SourceTable.describe(connection, sql, t.table());
        List<String> keys = t.keyColumns().isEmpty() ? src.primaryKey() : t.keyColumns();
        if (keys.isEmpty()) {
            throw new UsageException("table " + t.table() + " has no primary key: give the key columns (--key)");
        }
        keys.forEach(k -> src.require(k, "key"));
        SourceColumn primary = src.require(t.cursor().primaryColumn(), "cursor");
        if (!(t.cursor() instanceof Cursor.Id) && primary.kind() == ColumnKind.TEXT && sql.temporalsAsText()) {
            primary = textTimeCursor(connection, sql, t, src, keys, primary);
        }
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

    /**
     * A TEXT cursor column of SQLite (which has no date type) holding ISO-8601 text: probes every value's shape
     * ({@link TextCursorShapes}); one shape compares by text order in the database, so the column becomes a temporal
     * cursor (its values stay text in the events); several shapes are refused naming them and example keys.
     */
    private static SourceColumn textTimeCursor(Connection connection, SourceSql sql, WatermarkTable t, SourceTable src,
                                               List<String> keys, SourceColumn column) throws SQLException {
        String q = sql.quote(column.name());
        String keyText = keys.size() == 1 ? sql.quote(keys.get(0))
                : keys.stream().map(sql::quote).collect(java.util.stream.Collectors.joining(" || ',' || "));
        TextCursorShapes shapes = new TextCursorShapes();
        // Example: SELECT "id", "modified" FROM "notes" WHERE "modified" IS NOT NULL ORDER BY "id"
        try (PreparedStatement ps = connection.prepareStatement("SELECT " + keyText + ", " + q + " FROM " + sql.qualified(src.id())
                + " WHERE " + q + " IS NOT NULL ORDER BY " + keys.stream().map(sql::quote).collect(java.util.stream.Collectors.joining(", ")));
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                shapes.add(rs.getString(1), rs.getString(2));
            }
        }
        TextCursorShapes.Verdict verdict = shapes.verdict();
        if (verdict instanceof TextCursorShapes.Mixed m) {
            throw new UsageException("table " + t.table() + ": cursor column " + column.name() + " is TEXT whose values "
                    + (m.shapes().size() == 1 ? "are not ISO-8601 date-times" : "have " + m.shapes().size() + " shapes")
                    + ", which do not sort by time as text: " + TextCursorShapes.describe(m)
                    + "; rewrite them to one shape, e.g. UPDATE " + sql.qualified(src.id()) + " SET " + q + " = strftime('%Y-%m-%d %H:%M:%f', "
                    + q + ") (values with a zone become UTC), or poll by an id cursor (--cursor-kind id)");
        }
        TextCursorShapes.Uniform u = (TextCursorShapes.Uniform) verdict;
        log.info("table {}: cursor {} is TEXT holding date-times of one shape ({}, {} rows): windows are compared as text in the database",
                t.table(), column.name(), u.pattern(), u.rows());
        ColumnKind kind = u.shape().map(s -> s.dateOnly() ? ColumnKind.DATE : s.zone() != null ? ColumnKind.ZONED : ColumnKind.LOCAL)
                .orElse(ColumnKind.LOCAL);
        return new SourceColumn(column.name(), kind, column.type(), column.nullable(), column.fractionDigits(), column.declaredType());
    }

    /** The tie-break column of a timestamp+id cursor, null for other cursors. */
    String tieBreakColumn() {
        return settings.cursor() instanceof Cursor.TimestampId ti ? ti.idColumn() : null;
    }
}
