package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.RetryPolicy;
import dev.tidemark.jdbc.SinkException;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies batches of {@link ChangeEvent}s to one JDBC target, each batch together with the next Kafka offsets in a
 * single target transaction. That transaction is the only commit point: if it commits, the changes and the offsets
 * are both durable; if anything fails, both roll back and the caller re-reads the batch from the stored offsets.
 *
 * <p>Writes are idempotent: upserts and deletes by primary key, guarded by each row's stored source position so an
 * older event never overwrites a newer row. Not thread-safe: one consumer thread owns one sink.
 *
 * <p>Failures: each unit of work rolls back, then {@link RetryingExecutor} retries transient failures with backoff,
 * replacing a lost connection when the sink owns it ({@link TargetConnection}); {@link #close()} closes only a
 * connection the sink owns. Offsets are kept through {@link OffsetStore}.
 */
public final class JdbcChangeSink implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(JdbcChangeSink.class);

    private Connection connection;
    private final Dialect dialect;
    private final SinkOptions options;
    private final TargetConnection target;
    private final RetryingExecutor executor;
    private TargetTables tables;
    private StatementCache statements;
    private final OffsetStore offsets;
    private final TargetTableClaims claims;
    /** The table the current batch is working on, for failure messages: never null. */
    private String tableAtWork = SinkOptions.OFFSETS_TABLE;
    private ApplyFailures failures;
    private RowUpserts rowUpserts;
    private RowDeletes rowDeletes;
    private SchemaChangeApplier schemaChanges;
    private TablePositions tablePositions;
    /** The way on a stop for a dropped target table names (see {@link #withDroppedTableAdvice}). */
    private volatile DroppedTableAdvice droppedAdvice = DroppedTableAdvice.RESTORE;

    /** A sink writing through {@code target}'s connection, opened here (see {@link TargetConnection} for who closes it). */
    public JdbcChangeSink(TargetConnection target, Dialect dialect, SinkOptions options) throws SQLException {
        this.target = target;
        this.dialect = dialect;
        this.options = options;
        this.offsets = new OffsetStore(dialect, options);
        this.claims = new TargetTableClaims(options.targetTables());
        this.executor = new RetryingExecutor(dialect.name(), this::reconnectIfLost);
        connect();
    }

    /** Opens a connection to {@code jdbcUrl} (credentials in {@code properties}) and wraps it. */
    public static JdbcChangeSink open(String jdbcUrl, Properties properties, SinkOptions options) throws SQLException {
        Dialect dialect = Databases.targetForUrl(jdbcUrl);
        Properties merged = dialect.connectionDefaults();
        merged.putAll(properties);
        return new JdbcChangeSink(new TargetConnection.Owned(jdbcUrl, merged), dialect, options);
    }

    private void connect() throws SQLException {
        connection = target.open();
        statements = new StatementCache(connection);
        dialect.configure(connection);
        connection.setAutoCommit(false);
        tables = new TargetTables(connection, dialect, options, table -> droppedAdvice.wayOn(table));
        offsets.reconnected();
        failures = new ApplyFailures(connection, dialect, tables);
        RowWrites writes = new RowWrites(connection, dialect, options, tables, statements);
        rowUpserts = new RowUpserts(writes);
        rowDeletes = new RowDeletes(writes);
        schemaChanges = new SchemaChangeApplier(connection, dialect, tables, options.targetTables());
    }

    /**
     * Replaces the retry policy for transient failures (default {@link RetryPolicy#DEFAULT}); with
     * {@link RetryPolicy#NONE} a transient failure is thrown as it is, after rolling back, for the caller to retry.
     */
    public JdbcChangeSink withRetry(RetryPolicy policy) {
        executor.policy(policy);
        return this;
    }

    /**
     * Names {@code advice}'s way on when a target table this sink wrote is dropped while it runs (default
     * {@link DroppedTableAdvice#RESTORE}). Returns this.
     */
    public JdbcChangeSink withDroppedTableAdvice(DroppedTableAdvice advice) {
        this.droppedAdvice = java.util.Objects.requireNonNull(advice, "advice");
        return this;
    }

    /** How many times a transient failure was retried so far. */
    public long retries() {
        return executor.retries();
    }

    public Dialect dialect() {
        return dialect;
    }

    /** The target table {@code event}'s source table is written to ({@link SinkOptions#targetTables()}). */
    private String targetTable(ChangeEvent event) {
        return options.targetTables().of(event.table());
    }

    /**
     * The offsets this pipeline stored in the target, by topic and partition. From then on, writes of offsets are
     * fenced against these values (see {@link OffsetStore}): a write finding another value throws
     * {@link OffsetsFencedException}.
     */
    public Map<String, Map<Integer, Long>> storedOffsets() {
        return executor.run(this::storedOffsetsOnce);
    }

    private Map<String, Map<Integer, Long>> storedOffsetsOnce() {
        try {
            offsets.ensureTable(tables);
            Map<String, Map<Integer, Long>> out = offsets.read(connection);
            connection.commit();
            offsets.remember(out);
            return out;
        } catch (SQLException e) {
            rollbackQuietly();
            throw new SinkException("cannot read " + SinkOptions.OFFSETS_TABLE + " for pipeline " + options.pipeline()
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * Applies {@code events} and stores {@code nextOffsets} in one transaction.
     *
     * @throws SinkException after rolling back, naming the table at fault
     */
    public ApplyResult apply(List<ChangeEvent> events, Collection<PartitionOffset> nextOffsets) {
        return apply(events, nextOffsets, SideWrite.NONE);
    }

    /**
     * Applies {@code events}, stores {@code nextOffsets} and runs {@code sideWrite} (for example a watermark
     * control-table row) in one transaction: all of it commits, or none of it.
     *
     * @throws SinkException after rolling back, naming the table at fault
     */
    public ApplyResult apply(List<ChangeEvent> events, Collection<PartitionOffset> nextOffsets, SideWrite sideWrite) {
        return executor.run(() -> applyOnce(events, nextOffsets, sideWrite));
    }

    /**
     * Before a retry: replaces a lost connection when the sink owns it. A borrowed connection is never replaced: the
     * next attempt runs on it again (and fails, and is classified again, if it stays lost).
     */
    private void reconnectIfLost() {
        if (!target.reconnects()) {
            return;
        }
        try {
            if (connection.isClosed() || !connection.isValid(5)) {
                closeConnection();
                connect();
                log.info("reconnected to {} target", dialect.name());
            }
        } catch (SQLException re) {
            // the next attempt fails and is classified again
            log.warn("reconnect to {} target failed: {}", dialect.name(), re.getMessage());
        }
    }

    private ApplyResult applyOnce(List<ChangeEvent> events, Collection<PartitionOffset> nextOffsets, SideWrite sideWrite) {
        int upserts = 0;
        int deletes = 0;
        int collapsed = 0;
        tableAtWork = SinkOptions.OFFSETS_TABLE;
        try {
            for (ChangeEvent e : events) {
                if (!(e instanceof ChangeEvent.Delete d && d.tombstone())) { // a tombstone writes nothing (BatchPlan)
                    claims.claim(e.table()); // two source tables never merge into one target table
                }
            }
            offsets.ensureTable(tables);
            tableAtWork = SchemaChangeApplier.TABLE;
            List<ChangeEvent> rows = schemaChanges.prepare(events);
            tableAtWork = TablePositions.TABLE;
            BatchPlan.TableMarks marks = positions().marks();
            List<BatchPlan.Step> plan = BatchPlan.of(rows, marks, options.targetTables());
            prepareTables(plan); // commits its DDL: nothing of the batch may be written before it
            tableAtWork = SchemaChangeApplier.TABLE;
            schemaChanges.writePending();
            tableAtWork = TablePositions.TABLE;
            positions().raiseSnapshots(rows, marks, options.targetTables());
            for (BatchPlan.Step step : plan) {
                if (step instanceof BatchPlan.Truncation t) {
                    tableAtWork = targetTable(t.event());
                    truncate(t.event());
                    collapsed++;
                } else if (step instanceof BatchPlan.Changes c) {
                    collapsed += c.events().size();
                    for (Map.Entry<String, TableRun> e : TableRun.byTable(c.events(), options.targetTables()).entrySet()) {
                        tableAtWork = e.getKey();
                        upserts += upsert(e.getKey(), e.getValue());
                        deletes += delete(e.getKey(), e.getValue());
                    }
                }
            }
            tableAtWork = SinkOptions.OFFSETS_TABLE;
            offsets.write(connection, statements, nextOffsets);
            tableAtWork = sideWrite.table();
            sideWrite.write(connection, dialect);
            connection.commit();
            offsets.committed();
            return new ApplyResult(events.size(), collapsed, upserts, deletes);
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly();
            if (e instanceof SinkException se) {
                throw se;
            }
            if (e instanceof OffsetsFencedException fenced) {
                throw fenced; // not the batch's fault: never poison
            }
            throw failures.describe(tableAtWork, events.size(), e);
        }
    }

    /**
     * Creates missing tables and columns before the data transaction starts, and commits that DDL on its own: some
     * engines (MariaDB) commit implicitly on DDL, which must never split a batch from its offsets. Adding a table or
     * column ahead of the data is harmless if the data transaction then fails. Tables that only get deletes or a
     * truncate are checked too: one the sink wrote before that no longer exists stops the sink.
     */
    private void prepareTables(List<BatchPlan.Step> plan) throws SQLException {
        // decoded events of one schema share one column list instance: dedupe by identity, cheaply
        Map<List<Column>, Set<String>> seen = new java.util.IdentityHashMap<>();
        Set<String> changedOnly = new java.util.LinkedHashSet<>();
        boolean changed = false;
        for (BatchPlan.Step step : plan) {
            if (step instanceof BatchPlan.Changes c) {
                for (ChangeEvent e : c.events()) {
                    if (e instanceof ChangeEvent.Upsert u) {
                        if (seen.computeIfAbsent(u.schema().columns(), k -> new java.util.HashSet<>()).add(targetTable(u))) {
                            tableAtWork = targetTable(u);
                            changed |= tables.ensure(targetTable(u), u.schema(), schemaChanges.retypedFor(targetTable(u), u.position()));
                        }
                    } else {
                        changedOnly.add(targetTable(e));
                    }
                }
            } else if (step instanceof BatchPlan.Truncation t && (options.applyTruncate() || t.event().sweep())) {
                changedOnly.add(targetTable(t.event()));
            }
        }
        if (changed) {
            connection.commit();
        }
        for (String table : changedOnly) {
            tableAtWork = table;
            tables.existsForChanges(table);
        }
    }

    private int upsert(String table, TableRun run) throws SQLException {
        int upserted = 0;
        for (List<ChangeEvent.Upsert> group : run.upserts()) {
            upserted += rowUpserts.apply(table, group);
        }
        return upserted;
    }

    /** Deletes of a table the target does not have delete nothing. */
    private int delete(String table, TableRun run) throws SQLException {
        return run.deletes().isEmpty() || tables.columns(table).isEmpty() ? 0 : rowDeletes.apply(table, run.deletes());
    }

    private void truncate(ChangeEvent.Truncate t) throws SQLException {
        String table = targetTable(t);
        if (t.sweep()) {
            boolean exists = tables.columns(table).isPresent();
            int removed = positions().sweep(table, exists, exists && tables.created(table), options.positionColumn(), t.position());
            log.info("table {}: snapshot ended; removed {} target rows it no longer holds (older than {})",
                    t.table(), removed, t.position().encode());
            return;
        }
        if (!options.applyTruncate()) {
            throw new SinkException("table " + t.table() + ": truncate event at " + t.position().encode()
                    + " but truncates are not enabled for this sink (set target.applyTruncate: true)", null);
        }
        // guarded by position: rows written by changes newer than the truncate (from other partitions) stay
        positions().truncate(table, tables.columns(table).isPresent(), options.positionColumn(), t.position());
    }

    /** The per-table positions ({@link TablePositions}) on the current connection. */
    private TablePositions positions() {
        if (tablePositions == null || tablePositions.connection() != connection) {
            tablePositions = new TablePositions(connection, dialect);
        }
        return tablePositions;
    }

    private void rollbackQuietly() {
        tables.forget();
        schemaChanges.forget();
        offsets.rolledBack();
        statements.clearBatches();
        try {
            connection.rollback();
        } catch (SQLException e) {
            log.warn("rollback failed on {} target: {}", dialect.name(), e.getMessage());
        }
    }

    /** What the target holds of one table: exists; recorded by this sink (written before); holds a row (not if missing). */
    public record TableFound(boolean exists, boolean written, boolean holdsRows) {
    }

    /** Reads afresh, for a check before anything is applied, what the target holds of {@code table}. */
    public TableFound findTable(String table) {
        return executor.run(() -> {
            try {
                tables.forget();
                boolean exists = tables.columns(table).isPresent();
                TableFound found = new TableFound(exists, tables.wrote(table), exists && tables.holdsRows(table));
                connection.commit();
                return found;
            } catch (SQLException e) {
                rollbackQuietly();
                throw new SinkException("cannot read whether table " + table + " exists in the " + dialect.name() + " target: "
                        + e.getMessage(), e);
            }
        });
    }

    /** The columns the target's {@code table} has, as this sink last read them; empty if it has no such table. */
    public Set<String> knownColumns(String table) throws SQLException {
        return tables.columns(table).orElse(Set.of());
    }

    @Override
    public void close() {
        closeConnection();
    }

    /** Closes the statements, and the connection if the sink owns it. */
    private void closeConnection() {
        statements.close();
        try {
            target.release(connection);
        } catch (SQLException e) {
            log.warn("closing {} target connection failed: {}", dialect.name(), e.getMessage());
        }
    }
}
