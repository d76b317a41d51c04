package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.Messages;
import dev.tidemark.jdbc.SinkException;
import dev.tidemark.jdbc.SqlFailures;

import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps target tables in step with event schemas. Creates a table from the first schema that needs it and changes an
 * existing one's columns to fit a later schema ({@link ColumnEvolution}: added, widened and retyped columns; a
 * narrower or different type without a retype at the source, or a different primary key, is refused with an error
 * naming table and column). What each column was created from is recorded in {@value SinkOptions#COLUMNS_TABLE}
 * ({@link RecordedColumns}), so the check is exact on every engine. Tables Tidemark did not create are only ever given
 * new columns, and are refused when their key would merge distinct keys ({@link KeyCollationCheck}). A table the sink
 * wrote before that no longer exists stops the sink ({@link #dropped}), naming the way on its {@link DroppedTableAdvice} gives.
 *
 * <p>Runs on the sink's connection, outside the data transaction (see {@code JdbcChangeSink#prepareTables}).
 */
final class TargetTables {
    private final Connection connection;
    private final Dialect dialect;
    private final SinkOptions options;
    private final Map<String, Set<String>> known = new HashMap<>();
    private final Map<String, Map<String, String>> sqlTypes = new HashMap<>();
    private final RecordedColumns recorded;
    private final ColumnEvolution evolution;
    private final Set<List<Object>> verified = new HashSet<>();
    private final KeyCollationCheck keyCollations;
    private final DroppedTableAdvice droppedAdvice;
    private boolean metadataReady;

    TargetTables(Connection connection, Dialect dialect, SinkOptions options, DroppedTableAdvice droppedAdvice) {
        this.droppedAdvice = droppedAdvice;
        this.connection = connection;
        this.dialect = dialect;
        this.options = options;
        this.keyCollations = new KeyCollationCheck(connection, dialect);
        this.recorded = new RecordedColumns(connection, dialect);
        this.evolution = new ColumnEvolution(connection, dialect, options, recorded);
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
     * Whether the sink created {@code table}: its key columns are recorded in {@value SinkOptions#COLUMNS_TABLE}. Only
     * a table the sink created has them recorded; in a table it did not create the key was there before and only the
     * columns the sink adds are recorded.
     */
    boolean created(String table) throws SQLException {
        return recorded.of(table).values().stream().anyMatch(RecordedColumns.Recorded::key);
    }

    /**
     * Makes the target table fit {@code schema}.
     *
     * @param retyped columns the source retyped before the rows of {@code schema}: their target type may change to any
     *     other ({@link #retype})
     * @return whether any DDL ran
     * @throws SinkException naming table and column when the change cannot be applied safely
     */
    boolean ensure(String table, RowSchema schema, Set<String> retyped) throws SQLException {
        if (verified.contains(List.of(table, schema))) {
            return false;
        }
        ensureMetadataTable();
        boolean changed;
        try {
            changed = createOrEvolve(table, schema, retyped);
        } catch (SQLException e) {
            // Another sink instance (same consumer group, other partitions) may have run the same DDL at the same
            // moment; start over from what the database now holds, once.
            connection.rollback();
            forget();
            metadataReady = true;
            changed = createOrEvolve(table, schema, retyped);
        }
        if (changed) {
            sqlTypes.remove(table);
            // schemas verified against the table's old shape must be checked again (e.g. a later narrower one)
            verified.removeIf(v -> v.get(0).equals(table));
        }
        verified.add(List.of(table, schema));
        return changed;
    }

    private boolean createOrEvolve(String table, RowSchema schema, Set<String> retyped) throws SQLException {
        Optional<Set<String>> existing = columns(table);
        if (existing.isEmpty()) {
            existing = refuseIfDropped(table);
        }
        if (existing.isEmpty()) {
            create(table, schema);
            connection.commit();
            return true;
        }
        keyCollations.check(table);
        boolean changed = evolution.evolve(table, schema, existing.get(), retyped);
        if (changed) {
            connection.commit();
        }
        return changed;
    }

    /**
     * Whether a table that deletes or a truncate are about to touch exists; a table the sink wrote before that no
     * longer exists stops the sink (see {@link #refuseIfDropped}). Runs before the data transaction: it may create
     * Tidemark's metadata table.
     */
    boolean existsForChanges(String table) throws SQLException {
        if (columns(table).isPresent()) {
            keyCollations.check(table);
            return true;
        }
        ensureMetadataTable();
        if (refuseIfDropped(table).isEmpty()) {
            return false;
        }
        keyCollations.check(table);
        return true;
    }

    /**
     * Stops the sink when {@code table} does not exist but is recorded in {@value SinkOptions#COLUMNS_TABLE}: the
     * sink wrote it before, so re-creating it empty while the offsets stay ahead would lose every row written so far.
     * Only a replay from the earliest offset ({@link SinkOptions#rebuildDroppedTables()}) may create it again. A
     * table the catalog does not list is probed, so a table the sink's user cannot see is reported as a privilege
     * fault, never as dropped. A table that answers the probe and whose columns the catalog now lists was created by
     * another sink of the pipeline (a task of the same consumer group) since the first read: its columns are returned.
     *
     * @return empty when the table is absent (and may be created), else its columns as the catalog lists them now
     */
    private Optional<Set<String>> refuseIfDropped(String table) throws SQLException {
        if (recorded.of(table).isEmpty()) {
            return Optional.empty();
        }
        try (Statement s = connection.createStatement()) {
            s.executeQuery("SELECT 1 FROM " + q(table) + " WHERE 1 = 0").close();
        } catch (SQLException e) {
            Failure f = SqlFailures.classify(e);
            if (!(f instanceof Failure.Fault fault && fault.cause() == Failure.Cause.MISSING_OBJECT)) {
                throw new SinkException("table " + table + " (" + dialect.name() + "): " + Messages.oneLine(e) + ": " + f.advice(), e, f);
            }
            if (options.rebuildDroppedTables()) {
                connection.rollback(); // the failed probe aborted the transaction on PostgreSQL; nothing else is in it
                org.slf4j.LoggerFactory.getLogger(TargetTables.class).warn(
                        "table {} was dropped from the {} target; the replay from the earliest offset creates it again", table, dialect.name());
                return Optional.empty();
            }
            throw dropped(table, e);
        }
        Optional<Set<String>> now = columns(table);
        if (now.isPresent()) {
            return now;
        }
        throw new SinkException("table " + table + " (" + dialect.name() + "): exists, but the sink's user cannot read its "
                + "columns from the catalog: " + Failure.Cause.PRIVILEGE.advice(), null, new Failure.Fault(Failure.Cause.PRIVILEGE));
    }

    /**
     * After a rolled-back failure: whether {@code table} is missing although the sink wrote it before. Reads the
     * catalog afresh.
     */
    boolean wasDropped(String table) throws SQLException {
        forget();
        return columns(table).isEmpty() && !recorded.of(table).isEmpty();
    }

    /** Whether the sink recorded {@code table} in {@value SinkOptions#COLUMNS_TABLE}: it created or wrote it before. */
    boolean wrote(String table) throws SQLException {
        return !recorded.of(table).isEmpty();
    }

    /** Whether {@code table}, which must exist, holds at least one row. */
    boolean holdsRows(String table) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM " + dialect.quote(table) + " LIMIT 1");
             ResultSet rs = ps.executeQuery()) {
            return rs.next();
        }
    }

    /** The one-line fault for a table the sink wrote before that no longer exists, with this sink's way on. */
    SinkException dropped(String table, Throwable cause) {
        return dropped(table, dialect.name(), droppedAdvice.wayOn(table), cause);
    }

    /** The one-line fault for {@code table}, dropped from the {@code engine} target, ending with {@code wayOn}. */
    static SinkException dropped(String table, String engine, String wayOn, Throwable cause) {
        return new SinkException("table " + table + " was written by this sink (it is recorded in " + SinkOptions.COLUMNS_TABLE
                + ") but no longer exists in the " + engine + " target; the sink stopped instead of creating it empty, offsets "
                + "not advanced: " + wayOn, cause, new Failure.Fault(Failure.Cause.MISSING_OBJECT));
    }

    /**
     * Runs {@code CREATE TABLE IF NOT EXISTS} for one of Tidemark's own tables and commits it. Concurrent creators
     * can still collide inside PostgreSQL's catalog (a unique violation on pg_type); the loser checks that the table
     * now exists.
     */
    void createIfAbsent(String table, String ddl) throws SQLException {
        try {
            execute(ddl);
            connection.commit();
        } catch (SQLException e) {
            connection.rollback();
            known.remove(table);
            if (columns(table).isEmpty()) {
                throw e;
            }
            connection.commit();
        }
    }

    /** Adds a nullable column for a schema change (not committed here) and records its type. */
    void addColumn(String table, String column, ColumnType type) throws SQLException {
        ensureMetadataTable();
        execute("ALTER TABLE " + dialect.quote(table) + " ADD COLUMN " + dialect.quote(column) + " " + dialect.columnType(type, false));
        recorded.record(table, column, type, false);
        columns(table).ifPresent(cols -> cols.add(column));
        sqlTypes.remove(table);
        verified.removeIf(v -> v.get(0).equals(table));
    }

    /** Renames a column for a schema change, with its recorded type (not committed here); forgets what was read. */
    void renameColumn(String table, String from, String to) throws SQLException {
        ensureMetadataTable();
        execute("ALTER TABLE " + dialect.quote(table) + " RENAME COLUMN " + dialect.quote(from) + " TO " + dialect.quote(to));
        recorded.rename(table, from, to);
        forget();
    }

    private void create(String table, RowSchema schema) throws SQLException {
        Map<String, String> keyTypes = dialect.keyColumnTypes(table, schema); // refuses a key that cannot fit, before any DDL
        List<String> defs = new ArrayList<>();
        for (Column c : schema.columns()) {
            boolean key = schema.keyColumns().contains(c.name());
            defs.add(dialect.quote(c.name()) + " " + (key ? keyTypes.get(c.name()) + " NOT NULL" : dialect.columnType(c.type(), false)));
        }
        defs.add(dialect.quote(options.positionColumn()) + " " + dialect.positionType());
        if (options.softDeletes()) {
            defs.add(dialect.quote(SinkOptions.DELETED_COLUMN) + " " + dialect.columnType(ColumnType.of("boolean"), false));
        }
        List<String> keys = schema.keyColumns().stream().map(dialect::quote).toList();
        defs.add("PRIMARY KEY (" + String.join(", ", keys) + ")");
        execute("CREATE TABLE " + dialect.quote(table) + " (" + String.join(", ", defs) + ")");
        Set<String> cols = new LinkedHashSet<>();
        schema.columns().forEach(c -> cols.add(c.name()));
        cols.add(options.positionColumn());
        if (options.softDeletes()) {
            cols.add(SinkOptions.DELETED_COLUMN);
        }
        known.put(table, cols);
        recorded.created(table);
        for (Column c : schema.columns()) {
            recorded.record(table, c.name(), c.type(), schema.keyColumns().contains(c.name()));
        }
    }

    private void ensureMetadataTable() throws SQLException {
        if (metadataReady) {
            return;
        }
        String text = dialect.textType();
        createIfAbsent(SinkOptions.COLUMNS_TABLE, "CREATE TABLE IF NOT EXISTS " + q(SinkOptions.COLUMNS_TABLE) + " (" + q("table_name") + " " + text + " NOT NULL, "
                + q("column_name") + " " + text + " NOT NULL, " + q("connect_type") + " " + text + " NOT NULL, "
                + q("logical_name") + " " + text + ", " + q("parameters") + " " + text + ", " + q("is_key") + " "
                + dialect.bigintType() + " NOT NULL, PRIMARY KEY (" + q("table_name") + ", " + q("column_name") + "))");
        metadataReady = true;
    }

    private String q(String identifier) {
        return dialect.quote(identifier);
    }

    private void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    /**
     * The engine's own type name of each column of an existing table (for the casts of set-based statements), read
     * from the catalog once and cached until the table changes or a transaction rolls back.
     */
    Map<String, String> sqlTypes(String table) throws SQLException {
        Map<String, String> types = sqlTypes.get(table);
        if (types == null) {
            types = new HashMap<>();
            try (PreparedStatement ps = connection.prepareStatement(dialect.setWrites().orElseThrow().columnTypesQuery())) {
                ps.setString(1, dialect.quote(table));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        types.put(rs.getString(1), rs.getString(2));
                    }
                }
            }
            sqlTypes.put(table, types);
        }
        return types;
    }

    /** The target's type names of {@code columns}, or an error naming the table and the first missing column. */
    List<String> sqlTypes(String table, List<String> columns, String role) throws SQLException {
        Map<String, String> types = sqlTypes(table);
        List<String> out = new ArrayList<>(columns.size());
        for (String c : columns) {
            String type = types.get(c);
            if (type == null) {
                throw new SinkException("table " + table + ": " + role + " " + c + " does not exist in the target: "
                        + Failure.Cause.MISSING_OBJECT.advice(), null, new Failure.Fault(Failure.Cause.MISSING_OBJECT));
            }
            out.add(type);
        }
        return out;
    }

    void forget() {
        sqlTypes.clear();
        known.clear();
        recorded.forget();
        verified.clear();
    }
}
