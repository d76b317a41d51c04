package dev.tidemark.sink.jdbc;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.SchemaChangeJson;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.jdbc.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@link ChangeEvent.SchemaChange}s to the target in their place among the rows, and keeps every one applied in
 * {@value #TABLE} (target table, position, change) so that each is applied once (capture sends a copy to every
 * partition; a replay sends it again) and rows written before it at the source fit the target after it.
 *
 * <ul>
 *   <li>{@link ChangeEvent.ColumnChange.Renamed}: the target column is renamed (and its {@value SinkOptions#COLUMNS_TABLE}
 *       row), its values stay;</li>
 *   <li>{@link ChangeEvent.ColumnChange.Added} (a constant default): the column is added and every existing target row
 *       gets the value, in the batch's transaction, before the batch's rows;</li>
 *   <li>{@link ChangeEvent.ColumnChange.Dropped}: the target column is kept with the values it had (frozen); one INFO
 *       line says so;</li>
 *   <li>{@link ChangeEvent.ColumnChange.Retyped}: recorded, so that the first row after it may change the target column
 *       to its type ({@link #retypedFor}), a key column included.</li>
 * </ul>
 * A row whose position precedes a recorded change ({@link SchemaHistory#adapt}) is adapted first: renamed columns take
 * their new names, and a column added since gets the value every existing row got; one written before a change that
 * retyped a key column is left to the snapshot requested after that change ({@link SchemaHistory#precedesKeyRetype}).
 * DDL runs before the data transaction and commits on its own (MariaDB commits implicitly on DDL); each step checks the target's columns first,
 * so a retry after a rollback does nothing twice. Not thread-safe: the sink's thread owns it.
 */
final class SchemaChangeApplier {
    private static final Logger log = LoggerFactory.getLogger(SchemaChangeApplier.class);
    /** The table of the schema changes this sink applied. */
    static final String TABLE = "tidemark_schema_changes";

    private final Connection connection;
    private final Dialect dialect;
    private final TargetTables tables;
    private final TargetTableNames names;
    private final Map<String, SchemaHistory> histories = new HashMap<>();
    private final List<Pending> pending = new ArrayList<>();
    private boolean tableReady;
    private boolean tableLookedUp;

    /** A change whose value fills and whose record are written in the data transaction. */
    private record Pending(String table, ChangeEvent.SchemaChange change, Set<String> addedNow) {
    }

    SchemaChangeApplier(Connection connection, Dialect dialect, TargetTables tables, TargetTableNames names) {
        this.connection = connection;
        this.dialect = dialect;
        this.tables = tables;
        this.names = names;
    }

    /**
     * Runs the DDL of the batch's schema changes not applied before (committed here) and returns the batch's other
     * events, rows adapted to the changes they precede. {@link #writePending} must then run in the data transaction.
     */
    List<ChangeEvent> prepare(List<ChangeEvent> events) throws SQLException {
        pending.clear();
        Map<List<Object>, ChangeEvent.SchemaChange> changes = new LinkedHashMap<>();
        List<ChangeEvent> rest = new ArrayList<>(events.size());
        for (ChangeEvent e : events) {
            if (e instanceof ChangeEvent.SchemaChange sc) {
                changes.putIfAbsent(List.of(names.of(sc.table()), sc.position().encode()), sc);
            } else {
                rest.add(e);
            }
        }
        if (!changes.isEmpty()) {
            ensureTable();
            List<ChangeEvent.SchemaChange> ordered = new ArrayList<>(changes.values());
            ordered.sort(Comparator.comparing(ChangeEvent.SchemaChange::position));
            for (ChangeEvent.SchemaChange sc : ordered) {
                String table = names.of(sc.table());
                SchemaHistory h = history(table);
                if (h.contains(sc.position())) {
                    continue;
                }
                Set<String> addedNow = runDdl(table, sc);
                h.add(sc);
                pending.add(new Pending(table, sc, addedNow));
            }
        }
        return adapt(rest);
    }

    private List<ChangeEvent> adapt(List<ChangeEvent> events) throws SQLException {
        if (!tableReady && !historyTableExists()) {
            return events;
        }
        List<ChangeEvent> out = new ArrayList<>(events.size());
        Map<String, Integer> leftOut = new java.util.TreeMap<>();
        for (ChangeEvent e : events) {
            if (e instanceof ChangeEvent.Upsert u) {
                String table = names.of(u.table());
                SchemaHistory h = history(table);
                if (h.precedesKeyRetype(u)) {
                    leftOut.merge(table, 1, Integer::sum);
                } else {
                    out.add(h.adapt(u));
                }
            } else {
                out.add(e);
            }
        }
        leftOut.forEach((table, n) -> log.info("table {}: {} rows written before a key column changed type at the source arrived "
                + "after the change; left to the snapshot requested after it, which re-reads every row", table, n));
        return out;
    }

    /** Runs the change's DDL where the target does not have it yet; returns the columns added here. */
    private Set<String> runDdl(String table, ChangeEvent.SchemaChange sc) throws SQLException {
        Set<String> added = new java.util.HashSet<>();
        for (ChangeEvent.ColumnChange c : sc.changes()) {
            Optional<Set<String>> cols = tables.columns(table);
            if (c instanceof ChangeEvent.ColumnChange.Renamed r) {
                if (cols.isPresent() && cols.get().contains(r.from()) && !cols.get().contains(r.to())) {
                    tables.renameColumn(table, r.from(), r.to());
                    log.info("table {}: column {} renamed to {} at the source (at {}); renamed in the {} target", table, r.from(), r.to(),
                            sc.position().encode(), dialect.name());
                }
            } else if (c instanceof ChangeEvent.ColumnChange.Added a) {
                if (cols.isPresent() && !cols.get().contains(a.column())) {
                    tables.addColumn(table, a.column(), a.type());
                    added.add(a.column());
                }
            } else if (c instanceof ChangeEvent.ColumnChange.Dropped d) {
                log.info("table {}: column {} dropped at the source (at {}); the {} target keeps the column with the values it "
                        + "had then (frozen; rows written from now on leave it NULL)", table, d.column(), sc.position().encode(), dialect.name());
            } else if (c instanceof ChangeEvent.ColumnChange.Retyped r) {
                log.info("table {}: column {} changed type from {} to {} at the source (at {}); the {} target column takes the new "
                        + "type with the first row that carries it, and the snapshot requested after the change rewrites every row",
                        table, r.column(), r.from(), r.to(), sc.position().encode(), dialect.name());
            }
        }
        connection.commit();
        return added;
    }

    /** In the data transaction, before the batch's rows: the value fills of added columns and the change records. */
    void writePending() throws SQLException {
        for (Pending p : pending) {
            for (ChangeEvent.ColumnChange c : p.change().changes()) {
                boolean needed = c instanceof ChangeEvent.ColumnChange.Added a
                        && (a.value() != null || !p.addedNow().contains(a.column())) // a column added here is NULL already
                        && tables.columns(p.table()).map(s -> s.contains(a.column())).orElse(false);
                if (needed) {
                    ChangeEvent.ColumnChange.Added a = (ChangeEvent.ColumnChange.Added) c;
                    try (PreparedStatement ps = connection.prepareStatement("UPDATE " + dialect.quote(p.table()) + " SET "
                            + dialect.quote(a.column()) + " = ?")) {
                        dialect.bind(ps, 1, DefaultValues.of(a.type(), a.value()), a.type());
                        int rows = ps.executeUpdate();
                        log.info("table {}: column {} added at the source {}; {} existing target rows given its value",
                                p.table(), a.column(), a.value() == null ? "without a default" : "with a constant default", rows);
                    }
                }
            }
            try (PreparedStatement ps = connection.prepareStatement("INSERT INTO " + dialect.quote(TABLE) + " ("
                    + dialect.quote("table_name") + ", " + dialect.quote("position") + ", " + dialect.quote("change") + ") VALUES (?, ?, ?)")) {
                ps.setString(1, p.table());
                ps.setString(2, p.change().position().encode());
                ps.setString(3, SchemaChangeJson.encode(p.change()));
                ps.executeUpdate();
            }
        }
        pending.clear();
    }

    /**
     * The columns of {@code table} that a row at {@code position} may give a new type: retyped at the source by a
     * change the row does not precede.
     */
    Set<String> retypedFor(String table, SourcePosition position) throws SQLException {
        if (!tableReady && !historyTableExists()) {
            return Set.of();
        }
        return history(table).retypedFor(position);
    }

    /** After a rollback: what was read or planned is read again. */
    void forget() {
        histories.clear();
        pending.clear();
    }

    private SchemaHistory history(String table) throws SQLException {
        SchemaHistory h = histories.get(table);
        if (h != null) {
            return h;
        }
        List<ChangeEvent.SchemaChange> list = new ArrayList<>();
        if (tableReady || historyTableExists()) {
            try (PreparedStatement ps = connection.prepareStatement("SELECT " + dialect.quote("position") + ", " + dialect.quote("change")
                    + " FROM " + dialect.quote(TABLE) + " WHERE " + dialect.quote("table_name") + " = ?")) {
                ps.setString(1, table);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        list.add(SchemaChangeJson.decode(new dev.tidemark.event.TableId("", table),
                                SourcePosition.decode(rs.getString(1)), rs.getString(2)));
                    }
                }
            }
        }
        h = new SchemaHistory(list);
        histories.put(table, h);
        return h;
    }

    /**
     * Whether {@value #TABLE} exists, read once per connection: a sink that receives a schema change creates it then
     * (every member owning a partition of the table's topic receives a copy).
     */
    private boolean historyTableExists() throws SQLException {
        if (!tableReady && !tableLookedUp) {
            tableReady = tables.columns(TABLE).isPresent();
            tableLookedUp = true;
        }
        return tableReady;
    }

    private void ensureTable() throws SQLException {
        if (tableReady) {
            return;
        }
        tables.createIfAbsent(TABLE, "CREATE TABLE IF NOT EXISTS " + dialect.quote(TABLE) + " (" + dialect.quote("table_name") + " "
                + dialect.textType() + " NOT NULL, " + dialect.quote("position") + " " + dialect.positionType() + " NOT NULL, "
                + dialect.quote("change") + " " + dialect.columnType(dev.tidemark.event.ColumnType.of("string"), false)
                + " NOT NULL, PRIMARY KEY (" + dialect.quote("table_name") + ", " + dialect.quote("position") + "))");
        tableReady = true;
    }
}
