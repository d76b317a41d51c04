package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.SetWrites;
import dev.tidemark.jdbc.SinkException;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one table's upserts inside the sink's data transaction (see {@link JdbcChangeSink}): one set-based
 * statement per group where the engine has that capability ({@link Dialect#setWrites()}), else a prepared upsert
 * batched per row; the strategy is chosen once, when the writer is made.
 * Every update is guarded by the row's stored position; a value too long for its column is refused naming table,
 * column and key, never cut (see {@link SetWrites#fits}); Debezium's unchanged-TOAST placeholder is never written. Not
 * thread-safe: one per sink connection.
 */
final class RowUpserts {
    private static final ColumnType BOOLEAN = ColumnType.of("boolean");

    private final RowWrites sink;
    private final GroupWriter writer;

    /** How one group reaches the table: {@code columns} ends with the position column, {@code updates} are overwritten. */
    @FunctionalInterface
    private interface GroupWriter {
        int write(String table, List<ChangeEvent.Upsert> group, List<String> columns, List<String> updates) throws SQLException;
    }

    RowUpserts(RowWrites sink) {
        this.sink = sink;
        this.writer = sink.dialect().setWrites().<GroupWriter>map(set -> (t, g, c, u) -> upsertMany(set, t, g, c, u)).orElse(this::upsertRows);
    }

    /** Upserts one group (one schema, one set of unchanged-TOAST columns) inside the caller's transaction; returns how many. */
    int apply(String table, List<ChangeEvent.Upsert> group) throws SQLException {
        ChangeEvent.Upsert first = group.get(0);
        RowSchema schema = first.schema();
        List<String> unavailable = first.unavailableColumns();
        List<String> columns = new ArrayList<>();
        for (Column c : schema.columns()) {
            columns.add(c.name());
        }
        if (sink.options().softDeletes()) {
            columns.add(SinkOptions.DELETED_COLUMN);
        }
        columns.add(sink.options().positionColumn());
        List<String> updates = columns.stream()
                .filter(c -> !schema.keyColumns().contains(c) && !unavailable.contains(c))
                .toList();
        return writer.write(table, group, columns, updates);
    }

    /** A prepared upsert, batched per row. */
    private int upsertRows(String table, List<ChangeEvent.Upsert> group, List<String> columns, List<String> updates) throws SQLException {
        RowSchema schema = group.get(0).schema();
        String position = sink.options().positionColumn();
        PreparedStatement ps = sink.statements().get(sink.dialect().upsert(table, columns, schema.keyColumns(), updates, position));
        for (ChangeEvent.Upsert u : group) {
            int i = 1;
            for (Column c : schema.columns()) {
                Object v = u.row().get(c.name());
                // The unchanged-TOAST placeholder is never written: NULL on insert, left out of the update.
                sink.dialect().bind(ps, i++, ChangeEvent.UNAVAILABLE.equals(v) ? null : v, c.type());
            }
            if (sink.options().softDeletes()) {
                sink.dialect().bind(ps, i++, Boolean.FALSE, BOOLEAN);
            }
            bindPosition(ps, i, u.position());
            ps.addBatch();
        }
        ps.executeBatch();
        return group.size();
    }

    /**
     * Upserts a group (one schema, one set of unchanged-TOAST columns) as one set-based statement (engines with
     * {@link SetWrites#upsertMany}): one text array per column, cast on the server to the column's own type.
     */
    private int upsertMany(SetWrites set, String table, List<ChangeEvent.Upsert> group, List<String> columns, List<String> updates) throws SQLException {
        RowSchema schema = group.get(0).schema();
        List<String> columnTypes = sink.tables().sqlTypes(table, columns, "column");
        List<Column> sourceColumns = schema.columns();
        String[][] values = new String[columns.size()][group.size()];
        String deleted = set.arrayElement(Boolean.FALSE);
        for (int row = 0; row < group.size(); row++) {
            ChangeEvent.Upsert u = group.get(row);
            int col = 0;
            for (Column c : sourceColumns) {
                Object v = u.row().get(c.name());
                // The unchanged-TOAST placeholder is never written: NULL on insert, left out of the update.
                String element = ChangeEvent.UNAVAILABLE.equals(v) ? null : set.arrayElement(v);
                if (!set.fits(element, columnTypes.get(col))) {
                    throw tooLong(table, c.name(), columnTypes.get(col), element, u);
                }
                values[col++][row] = element;
            }
            if (sink.options().softDeletes()) {
                values[col++][row] = deleted;
            }
            String position = u.position().encode();
            values[col][row] = position.isEmpty() ? null : position;
        }
        PreparedStatement ps = sink.statements().get(set.upsertMany(table, columns, columnTypes, schema.keyColumns(), updates,
                sink.options().positionColumn()));
        for (int i = 0; i < values.length; i++) {
            ps.setArray(i + 1, sink.connection().createArrayOf("text", values[i]));
        }
        ps.executeUpdate();
        return group.size();
    }

    /** A value longer than a pre-existing column's declared length: the row is refused, never cut. */
    private static SinkException tooLong(String table, String column, String type, String value, ChangeEvent.Upsert u) {
        return new SinkException("table " + table + " column " + column + ": a value of " + value.codePointCount(0, value.length())
                + " characters does not fit " + type + " (key " + shortened(u.key().toString()) + "); the row is refused, "
                + "never cut (a cut key would merge distinct rows): widen the target column", null, new Failure.RowRejected());
    }

    private static String shortened(String key) {
        return key.length() <= 200 ? key : key.substring(0, 200) + "…";
    }

    private void bindPosition(PreparedStatement ps, int index, SourcePosition position) throws SQLException {
        String rendered = position.encode();
        sink.dialect().bind(ps, index, rendered.isEmpty() ? null : rendered, ColumnType.of("string"));
    }
}
