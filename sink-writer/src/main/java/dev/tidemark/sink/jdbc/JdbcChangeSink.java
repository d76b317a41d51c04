package dev.tidemark.sink.jdbc;

import dev.tidemark.sink.event.ChangeEvent;
import dev.tidemark.sink.event.Column;
import dev.tidemark.sink.event.ColumnType;
import dev.tidemark.sink.event.RowSchema;
import dev.tidemark.sink.event.SourcePosition;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 */
public final class JdbcChangeSink implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(JdbcChangeSink.class);

    private static final ColumnType BOOLEAN = ColumnType.of("boolean");

    private Connection connection;
    private final Dialect dialect;
    private final SinkOptions options;
    private final ConnectionSource source;
    private RetryPolicy retry = RetryPolicy.DEFAULT;
    private TargetTables tables;
    private long retries;
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    private boolean offsetsTableReady;

    /** Opens connections for the sink: the first, and new ones after a connection was lost. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection open() throws SQLException;
    }

    public JdbcChangeSink(ConnectionSource source, Dialect dialect, SinkOptions options) throws SQLException {
        this.source = source;
        this.dialect = dialect;
        this.options = options;
        connect();
    }

    /** Opens a connection to {@code jdbcUrl} (credentials in {@code properties}) and wraps it. */
    public static JdbcChangeSink open(String jdbcUrl, Properties properties, SinkOptions options) throws SQLException {
        Dialect dialect = Dialect.forUrl(jdbcUrl);
        Properties merged = dialect.connectionDefaults();
        merged.putAll(properties);
        return new JdbcChangeSink(() -> DriverManager.getConnection(jdbcUrl, merged), dialect, options);
    }

    private void connect() throws SQLException {
        connection = source.open();
        dialect.configure(connection);
        connection.setAutoCommit(false);
        tables = new TargetTables(connection, dialect, options);
        offsetsTableReady = false;
    }

    /** Replaces the retry policy for transient failures (default {@link RetryPolicy#DEFAULT}). */
    public JdbcChangeSink withRetry(RetryPolicy policy) {
        this.retry = policy;
        return this;
    }

    /** How many times a transient failure was retried so far. */
    public long retries() {
        return retries;
    }

    public Dialect dialect() {
        return dialect;
    }

    /** The target table a source table is written to: the source table name, without its schema. */
    public static String targetTable(ChangeEvent event) {
        return event.table().table();
    }

    /** The offsets this pipeline stored in the target, by topic and partition. */
    public Map<String, Map<Integer, Long>> storedOffsets() {
        return retrying(this::storedOffsetsOnce);
    }

    private Map<String, Map<Integer, Long>> storedOffsetsOnce() {
        try {
            ensureOffsetsTable();
            Map<String, Map<Integer, Long>> out = new LinkedHashMap<>();
            String sql = "SELECT " + q("topic") + ", " + q("partition") + ", " + q("next_offset") + " FROM "
                    + q(SinkOptions.OFFSETS_TABLE) + " WHERE " + q("pipeline") + " = ?";
            try (PreparedStatement ps = connection.prepareStatement(sql)) {
                ps.setString(1, options.pipeline());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.computeIfAbsent(rs.getString(1), t -> new HashMap<>()).put(rs.getInt(2), rs.getLong(3));
                    }
                }
            }
            connection.commit();
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
        return retrying(() -> applyOnce(events, nextOffsets, sideWrite));
    }

    private <T> T retrying(java.util.function.Supplier<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return work.get();
            } catch (SinkException e) {
                if (!e.isTransient() || attempt >= retry.attempts()) {
                    if (e.isTransient()) {
                        throw new SinkException(e.getMessage() + " (gave up after " + attempt + " attempts)", e.getCause());
                    }
                    throw e;
                }
                recover(e, attempt + 1);
            }
        }
    }

    /** Waits out a transient failure and reconnects when the connection is gone. */
    private void recover(SinkException e, int nextAttempt) {
        retries++;
        java.time.Duration wait = retry.backoff(nextAttempt);
        log.warn("transient {} target failure, attempt {} of {} in {} ms: {}", dialect.name(), nextAttempt, retry.attempts(),
                wait.toMillis(), e.getMessage());
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new SinkException("interrupted while retrying: " + e.getMessage(), e);
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
        String table = null;
        try {
            ensureOffsetsTable();
            List<BatchPlan.Step> plan = positions().plan(events);
            prepareTables(plan);
            for (BatchPlan.Step step : plan) {
                if (step instanceof BatchPlan.Truncation t) {
                    table = targetTable(t.event());
                    truncate(t.event());
                    collapsed++;
                } else if (step instanceof BatchPlan.Changes c) {
                    collapsed += c.events().size();
                    Map<String, List<ChangeEvent>> byTable = new LinkedHashMap<>();
                    for (ChangeEvent e : c.events()) {
                        byTable.computeIfAbsent(targetTable(e), k -> new ArrayList<>()).add(e);
                    }
                    for (Map.Entry<String, List<ChangeEvent>> e : byTable.entrySet()) {
                        table = e.getKey();
                        int[] counts = applyTable(e.getKey(), e.getValue());
                        upserts += counts[0];
                        deletes += counts[1];
                    }
                }
            }
            table = SinkOptions.OFFSETS_TABLE;
            storeOffsets(nextOffsets);
            table = "(side write)";
            sideWrite.write(connection, dialect);
            connection.commit();
            return new ApplyResult(events.size(), collapsed, upserts, deletes);
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly();
            if (e instanceof SinkException se) {
                throw se;
            }
            throw new SinkException("cannot apply batch of " + events.size() + " events to table " + table + " ("
                    + dialect.name() + "): " + e.getMessage(), e);
        }
    }

    /**
     * Creates missing tables and columns before the data transaction starts, and commits that DDL on its own: some
     * engines (MariaDB) commit implicitly on DDL, which must never split a batch from its offsets. Adding a table or
     * column ahead of the data is harmless if the data transaction then fails.
     */
    private void prepareTables(List<BatchPlan.Step> plan) throws SQLException {
        // decoded events of one schema share one column list instance: dedupe by identity, cheaply
        Map<List<Column>, Set<String>> seen = new java.util.IdentityHashMap<>();
        boolean changed = false;
        for (BatchPlan.Step step : plan) {
            if (step instanceof BatchPlan.Changes c) {
                for (ChangeEvent e : c.events()) {
                    if (e instanceof ChangeEvent.Upsert u
                            && seen.computeIfAbsent(u.schema().columns(), k -> new java.util.HashSet<>()).add(targetTable(u))) {
                        changed |= tables.ensure(targetTable(u), u.schema());
                    }
                }
            }
        }
        if (changed) {
            connection.commit();
        }
    }

    private int[] applyTable(String table, List<ChangeEvent> events) throws SQLException {
        // shape = column list (shared instance per schema) + unchanged-TOAST columns (almost always none)
        Map<List<Column>, Map<List<String>, List<ChangeEvent.Upsert>>> upsertsByShape = new java.util.IdentityHashMap<>();
        List<ChangeEvent.Delete> deletes = new ArrayList<>();
        for (ChangeEvent e : events) {
            if (e instanceof ChangeEvent.Upsert u) {
                upsertsByShape.computeIfAbsent(u.schema().columns(), k -> new HashMap<>())
                        .computeIfAbsent(u.unavailableColumns(), k -> new ArrayList<>()).add(u);
            } else if (e instanceof ChangeEvent.Delete d) {
                deletes.add(d);
            } else {
                throw new IllegalStateException("truncate inside a change run");
            }
        }
        int upserted = 0;
        for (Map<List<String>, List<ChangeEvent.Upsert>> byUnavailable : upsertsByShape.values()) {
            for (List<ChangeEvent.Upsert> group : byUnavailable.values()) {
                upserted += upsertGroup(table, group);
            }
        }
        int deleted = deletes.isEmpty() || tables.columns(table).isEmpty() ? 0 : deleteAll(table, deletes);
        return new int[] {upserted, deleted};
    }

    private int upsertGroup(String table, List<ChangeEvent.Upsert> group) throws SQLException {
        ChangeEvent.Upsert first = group.get(0);
        RowSchema schema = first.schema();
        List<String> unavailable = first.unavailableColumns();
        List<String> columns = new ArrayList<>();
        for (Column c : schema.columns()) {
            columns.add(c.name());
        }
        if (options.softDeletes()) {
            columns.add(SinkOptions.DELETED_COLUMN);
        }
        columns.add(options.positionColumn());
        List<String> updates = columns.stream()
                .filter(c -> !schema.keyColumns().contains(c) && !unavailable.contains(c))
                .toList();
        if (dialect.columnTypesQuery() != null) {
            return upsertMany(table, group, columns, updates);
        }
        PreparedStatement ps = statement(dialect.upsert(table, columns, schema.keyColumns(), updates, options.positionColumn()));
        for (ChangeEvent.Upsert u : group) {
            int i = 1;
            for (Column c : schema.columns()) {
                Object v = u.row().get(c.name());
                // The unchanged-TOAST placeholder is never written: NULL on insert, left out of the update.
                dialect.bind(ps, i++, ChangeEvent.UNAVAILABLE.equals(v) ? null : v, c.type());
            }
            if (options.softDeletes()) {
                dialect.bind(ps, i++, Boolean.FALSE, BOOLEAN);
            }
            bindPosition(ps, i, u.position());
            ps.addBatch();
        }
        ps.executeBatch();
        return group.size();
    }

    /**
     * Upserts a group (one schema, one set of unchanged-TOAST columns) as one set-based statement (engines with
     * {@link Dialect#upsertMany}): one text array per column, cast on the server to the column's own type.
     */
    private int upsertMany(String table, List<ChangeEvent.Upsert> group, List<String> columns, List<String> updates) throws SQLException {
        RowSchema schema = group.get(0).schema();
        List<String> columnTypes = sqlTypes(table, columns, "column");
        List<Column> sourceColumns = schema.columns();
        String[][] values = new String[columns.size()][group.size()];
        String deleted = dialect.arrayElement(Boolean.FALSE);
        for (int row = 0; row < group.size(); row++) {
            ChangeEvent.Upsert u = group.get(row);
            int col = 0;
            for (Column c : sourceColumns) {
                Object v = u.row().get(c.name());
                // The unchanged-TOAST placeholder is never written: NULL on insert, left out of the update.
                values[col++][row] = ChangeEvent.UNAVAILABLE.equals(v) ? null : dialect.arrayElement(v);
            }
            if (options.softDeletes()) {
                values[col++][row] = deleted;
            }
            String position = u.position().render();
            values[col][row] = position.isEmpty() ? null : position;
        }
        PreparedStatement ps = statement(dialect.upsertMany(table, columns, columnTypes, schema.keyColumns(), updates,
                options.positionColumn()));
        for (int i = 0; i < values.length; i++) {
            ps.setArray(i + 1, connection.createArrayOf("text", values[i]));
        }
        ps.executeUpdate();
        return group.size();
    }

    /** The target's type names of {@code columns}, or an error naming the table and the first missing column. */
    private List<String> sqlTypes(String table, List<String> columns, String role) throws SQLException {
        Map<String, String> types = tables.sqlTypes(table);
        List<String> out = new ArrayList<>(columns.size());
        for (String c : columns) {
            String type = types.get(c);
            if (type == null) {
                throw new SinkException("table " + table + ": " + role + " " + c + " does not exist in the target", null);
            }
            out.add(type);
        }
        return out;
    }

    private int deleteAll(String table, List<ChangeEvent.Delete> deletes) throws SQLException {
        if (!options.softDeletes() && dialect.columnTypesQuery() != null) {
            return deleteMany(table, deletes);
        }
        int n = 0;
        Map<String, PreparedStatement> used = new LinkedHashMap<>();
        for (ChangeEvent.Delete d : deletes) {
            boolean guarded = !(d.position() instanceof SourcePosition.Unknown);
            if (options.softDeletes()) {
                softDelete(table, d, guarded, used);
                n++;
                continue;
            }
            String sql = deleteSql(table, d.key().keySet(), guarded);
            PreparedStatement ps = statement(sql);
            used.put(sql, ps);
            int i = 1;
            for (Object v : d.key().values()) {
                dialect.bind(ps, i++, v, ColumnType.of("string"));
            }
            if (guarded) {
                bindPosition(ps, i, d.position());
            }
            ps.addBatch();
            n++;
        }
        for (PreparedStatement ps : used.values()) {
            ps.executeBatch();
        }
        return n;
    }

    /**
     * Hard deletes as one set-based statement per key shape (engines with {@link Dialect#deleteMany}): the keys and
     * positions go as text arrays, cast on the server to the key columns' own types.
     */
    private int deleteMany(String table, List<ChangeEvent.Delete> deletes) throws SQLException {
        Map<List<String>, List<ChangeEvent.Delete>> byKeys = new LinkedHashMap<>();
        for (ChangeEvent.Delete d : deletes) {
            byKeys.computeIfAbsent(List.copyOf(d.key().keySet()), k -> new ArrayList<>()).add(d);
        }
        for (Map.Entry<List<String>, List<ChangeEvent.Delete>> e : byKeys.entrySet()) {
            List<String> keys = e.getKey();
            List<String> keyTypes = sqlTypes(table, keys, "key column of a delete");
            List<ChangeEvent.Delete> group = e.getValue();
            String[][] keyValues = new String[keys.size()][group.size()];
            String[] positions = new String[group.size()];
            for (int row = 0; row < group.size(); row++) {
                ChangeEvent.Delete d = group.get(row);
                int col = 0;
                for (Object v : d.key().values()) {
                    keyValues[col++][row] = dialect.arrayElement(v);
                }
                String rendered = d.position().render();
                positions[row] = rendered.isEmpty() ? null : rendered;
            }
            PreparedStatement ps = statement(dialect.deleteMany(table, keys, keyTypes, options.positionColumn()));
            int i = 1;
            for (String[] column : keyValues) {
                ps.setArray(i++, connection.createArrayOf("text", column));
            }
            ps.setArray(i, connection.createArrayOf("text", positions));
            ps.executeUpdate();
        }
        return deletes.size();
    }

    private final Map<List<Object>, String> deleteSqls = new HashMap<>();

    /** Example: {@code DELETE FROM "orders" WHERE "id" = ? AND ("__tidemark_position" IS NULL OR "__tidemark_position" <= ?)}. */
    private String deleteSql(String table, Set<String> keys, boolean guarded) {
        return deleteSqls.computeIfAbsent(List.of(table, keys, guarded), k -> {
            StringBuilder sql = new StringBuilder("DELETE FROM ").append(q(table)).append(" WHERE ");
            int i = 0;
            for (String key : keys) {
                sql.append(i++ == 0 ? "" : " AND ").append(q(key)).append(" = ?");
            }
            if (guarded) {
                sql.append(" AND (").append(q(options.positionColumn())).append(" IS NULL OR ")
                        .append(q(options.positionColumn())).append(" <= ?)");
            }
            return sql.toString();
        });
    }

    /**
     * Soft delete: the key stays with {@code __tidemark_deleted} = true and the delete's position, so an older
     * insert replayed later is refused by the position guard instead of resurrecting the row. A tombstone (no
     * position) only marks an existing row.
     */
    private void softDelete(String table, ChangeEvent.Delete d, boolean guarded, Map<String, PreparedStatement> used) throws SQLException {
        List<String> keys = new ArrayList<>(d.key().keySet());
        String sql;
        if (guarded) {
            List<String> columns = new ArrayList<>(keys);
            columns.add(SinkOptions.DELETED_COLUMN);
            columns.add(options.positionColumn());
            sql = dialect.upsert(table, columns, keys, List.of(SinkOptions.DELETED_COLUMN, options.positionColumn()), options.positionColumn());
        } else {
            StringBuilder b = new StringBuilder("UPDATE ").append(q(table)).append(" SET ").append(q(SinkOptions.DELETED_COLUMN))
                    .append(" = ? WHERE ");
            for (int i = 0; i < keys.size(); i++) {
                b.append(i == 0 ? "" : " AND ").append(q(keys.get(i))).append(" = ?");
            }
            sql = b.toString();
        }
        PreparedStatement ps = statement(sql);
        used.put(sql, ps);
        int i = 1;
        if (!guarded) {
            dialect.bind(ps, i++, Boolean.TRUE, BOOLEAN);
        }
        for (Object v : d.key().values()) {
            dialect.bind(ps, i++, v, ColumnType.of("string"));
        }
        if (guarded) {
            dialect.bind(ps, i++, Boolean.TRUE, BOOLEAN);
            bindPosition(ps, i, d.position());
        }
        ps.addBatch();
    }

    private void truncate(ChangeEvent.Truncate t) throws SQLException {
        String table = targetTable(t);
        if (!options.applyTruncate()) {
            throw new SinkException("table " + t.table() + ": truncate event at " + t.position().render()
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

    private TablePositions tablePositions;

    private void bindPosition(PreparedStatement ps, int index, SourcePosition position) throws SQLException {
        String rendered = position.render();
        dialect.bind(ps, index, rendered.isEmpty() ? null : rendered, ColumnType.of("string"));
    }

    private void ensureOffsetsTable() throws SQLException {
        if (offsetsTableReady) {
            return;
        }
        tables.createIfAbsent(SinkOptions.OFFSETS_TABLE, "CREATE TABLE IF NOT EXISTS " + q(SinkOptions.OFFSETS_TABLE) + " ("
                + q("pipeline") + " " + dialect.textType() + " NOT NULL, "
                + q("topic") + " " + dialect.textType() + " NOT NULL, "
                + q("partition") + " " + dialect.bigintType() + " NOT NULL, "
                + q("next_offset") + " " + dialect.bigintType() + " NOT NULL, "
                + q("updated_at") + " " + dialect.textType() + ", "
                + "PRIMARY KEY (" + q("pipeline") + ", " + q("topic") + ", " + q("partition") + "))");
        offsetsTableReady = true;
    }

    private void storeOffsets(Collection<PartitionOffset> offsets) throws SQLException {
        if (offsets.isEmpty()) {
            return;
        }
        String sql = dialect.upsert(SinkOptions.OFFSETS_TABLE,
                List.of("pipeline", "topic", "partition", "next_offset", "updated_at"),
                List.of("pipeline", "topic", "partition"), List.of("next_offset", "updated_at"), null);
        PreparedStatement ps = statement(sql);
        String now = Instant.now().toString();
        for (PartitionOffset o : offsets) {
            ps.setString(1, options.pipeline());
            ps.setString(2, o.topic());
            ps.setLong(3, o.partition());
            ps.setLong(4, o.nextOffset());
            ps.setString(5, now);
            ps.addBatch();
        }
        ps.executeBatch();
    }

    private PreparedStatement statement(String sql) throws SQLException {
        PreparedStatement ps = statements.get(sql);
        if (ps == null) {
            ps = connection.prepareStatement(sql);
            statements.put(sql, ps);
        }
        return ps;
    }

    private String q(String identifier) {
        return dialect.quote(identifier);
    }

    private void rollbackQuietly() {
        tables.forget();
        for (PreparedStatement ps : statements.values()) {
            try {
                ps.clearBatch();
            } catch (SQLException ignored) {
                // the statement is discarded below
            }
        }
        try {
            connection.rollback();
        } catch (SQLException e) {
            log.warn("rollback failed on {} target: {}", dialect.name(), e.getMessage());
        }
    }

    /** Names of the tables this sink has created or seen, for diagnostics. */
    public Set<String> knownColumns(String table) throws SQLException {
        return tables.columns(table).orElse(Set.of());
    }

    @Override
    public void close() {
        closeConnection();
    }

    private void closeConnection() {
        for (PreparedStatement ps : statements.values()) {
            try {
                ps.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
        statements.clear();
        try {
            connection.close();
        } catch (SQLException e) {
            log.warn("closing {} target connection failed: {}", dialect.name(), e.getMessage());
        }
    }
}
