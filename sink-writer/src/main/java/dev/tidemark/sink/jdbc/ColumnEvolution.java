package dev.tidemark.sink.jdbc;

import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.Messages;
import dev.tidemark.jdbc.SinkException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes the columns of an existing target table to fit a later event schema: adds columns that appear, widens a
 * column the source widened (more integer or decimal digits), and gives a column the source retyped
 * ({@link SchemaChangeApplier#retypedFor}) its new type — a non-key column with its values cast, or set to NULL where
 * the target refuses a cast; a key column with its values cast, or, where the target refuses a cast, with the table's
 * rows deleted (the snapshot requested after the type change rewrites every row either way). Any other type change, or
 * a different primary key, is refused with an error naming table and column. Columns Tidemark did not create
 * (nothing recorded in {@link RecordedColumns}) keep their type.
 */
final class ColumnEvolution {
    private static final Logger log = LoggerFactory.getLogger(ColumnEvolution.class);

    private final Connection connection;
    private final Dialect dialect;
    private final SinkOptions options;
    private final RecordedColumns recorded;

    ColumnEvolution(Connection connection, Dialect dialect, SinkOptions options, RecordedColumns recorded) {
        this.connection = connection;
        this.dialect = dialect;
        this.options = options;
        this.recorded = recorded;
    }

    /**
     * Makes the columns {@code cols} of {@code table} fit {@code schema} (adding to {@code cols}); a retype commits on its
     * own, the rest is left to the caller's commit.
     *
     * @return whether any DDL ran
     */
    boolean evolve(String table, RowSchema schema, Set<String> cols, Set<String> retyped) throws SQLException {
        Map<String, RecordedColumns.Recorded> rec = recorded.of(table);
        refuseKeyChange(table, schema, rec);
        boolean changed = false;
        for (Column c : schema.columns()) {
            boolean key = schema.keyColumns().contains(c.name());
            if (!cols.contains(c.name())) {
                execute("ALTER TABLE " + q(table) + " ADD COLUMN " + q(c.name()) + " " + dialect.columnType(c.type(), false));
                cols.add(c.name());
                recorded.record(table, c.name(), c.type(), key);
                changed = true;
            } else if (rec.containsKey(c.name())) { // a column Tidemark did not create keeps its type
                changed |= change(table, schema, c, rec.get(c.name()).type(), retyped.contains(c.name()));
            }
        }
        changed |= addIfMissing(table, cols, options.positionColumn(), dialect.positionType());
        if (options.softDeletes()) {
            changed |= addIfMissing(table, cols, SinkOptions.DELETED_COLUMN, dialect.columnType(ColumnType.of("boolean"), false));
        }
        return changed;
    }

    private void refuseKeyChange(String table, RowSchema schema, Map<String, RecordedColumns.Recorded> rec) {
        if (rec.isEmpty()) {
            return;
        }
        List<String> recordedKey = rec.entrySet().stream().filter(e -> e.getValue().key()).map(Map.Entry::getKey).toList();
        if (!new HashSet<>(recordedKey).equals(new HashSet<>(schema.keyColumns()))) {
            throw new SinkException("table " + table + ": primary key changed from " + recordedKey + " to "
                    + schema.keyColumns() + "; a target cannot follow a key change safely (re-create the target table and replay)", null,
                    new Failure.Fault(Failure.Cause.SCHEMA));
        }
    }

    /** Changes recorded column {@code c} from type {@code was} where the schema's type differs; whether DDL ran. */
    private boolean change(String table, RowSchema schema, Column c, ColumnType was, boolean retyped) throws SQLException {
        boolean key = schema.keyColumns().contains(c.name());
        switch (TypeChange.between(was, c.type())) {
            case SAME -> {
                return false;
            }
            case WIDEN -> {
                Optional<String> sql = dialect.alterColumnType(table, c.name(), targetType(table, schema, c, key));
                if (sql.isPresent()) {
                    execute(sql.get());
                }
                recorded.record(table, c.name(), c.type(), key);
                return true;
            }
            default -> {
                if (!retyped) {
                    throw new SinkException("table " + table + " column " + c.name() + ": type change from "
                            + RecordedTypes.describe(was) + " to " + RecordedTypes.describe(c.type()) + " cannot be applied safely "
                            + "(narrowing or incompatible); alter the target column yourself or re-create the table and replay", null,
                            new Failure.Fault(Failure.Cause.SCHEMA));
                }
                retype(table, c, was, key, targetType(table, schema, c, key));
                return true;
            }
        }
    }

    private String targetType(String table, RowSchema schema, Column c, boolean key) {
        return key ? dialect.keyColumnTypes(table, schema).get(c.name()) : dialect.columnType(c.type(), false);
    }

    /**
     * Gives column {@code c} the type the source changed it to (committed here): its values cast to the new type, or,
     * where the engine refuses the cast of a value, first set to NULL (a non-key column) or deleted with their rows (a
     * key column). The snapshot requested after the change rewrites every row with the source's value. SQLite only
     * records a non-key column's type (a declared type sets only affinity) and rebuilds the table for a key column.
     */
    private void retype(String table, Column c, ColumnType was, boolean key, String type) throws SQLException {
        connection.commit(); // the DDL of this table so far, so that a refused cast undoes nothing else
        List<String> sql = key ? dialect.retypeKeyColumn(connection, table, c.name(), type)
                : dialect.retypeColumn(table, c.name(), type).stream().toList();
        String how = sql.isEmpty() ? "its values kept" : "its values cast";
        try {
            executeAll(sql);
        } catch (SQLException e) {
            connection.rollback();
            execute(key ? "DELETE FROM " + q(table) : "UPDATE " + q(table) + " SET " + q(c.name()) + " = NULL");
            executeAll(sql);
            how = (key ? "the table's rows deleted" : "set to NULL") + ", since " + dialect.name() + " refused a cast ("
                    + Messages.oneLine(e) + ")";
        }
        recorded.record(table, c.name(), c.type(), key);
        connection.commit();
        log.info("table {} {}column {}: retyped from {} to {} as at the source, {}; the snapshot requested after the change "
                + "rewrites every row", table, key ? "key " : "", c.name(), RecordedTypes.describe(was), RecordedTypes.describe(c.type()), how);
    }

    private boolean addIfMissing(String table, Set<String> cols, String column, String type) throws SQLException {
        if (cols.contains(column)) {
            return false;
        }
        // a table Tidemark did not create: it still needs the position (and soft-delete) column
        execute("ALTER TABLE " + q(table) + " ADD COLUMN " + q(column) + " " + type);
        cols.add(column);
        return true;
    }

    private void executeAll(List<String> sql) throws SQLException {
        for (String s : sql) {
            execute(s);
        }
    }

    private void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    private String q(String identifier) {
        return dialect.quote(identifier);
    }
}
