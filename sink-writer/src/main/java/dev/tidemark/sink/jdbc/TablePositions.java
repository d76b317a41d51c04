package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.Dialect;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.SourcePosition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Positions the sink remembers per target table ({@code tidemark_table_positions}), written in the transaction of
 * the batch that moved them, never backwards:
 * <ul>
 *   <li>{@code truncated_at}: the newest truncate applied. A truncate event has no key, so it travels on one
 *       partition while the table's row changes travel on all of them: a change made before the truncate can reach
 *       the sink after it (and one made after it, before it). {@link BatchPlan} drops row changes older than the
 *       table's truncate, and the truncate deletes only rows older than itself.</li>
 *   <li>{@code snapshot_at}: the newest snapshot row applied ({@link SourcePosition.Phase#SNAPSHOT}). Changes of the
 *       first transaction streamed after a snapshot ({@link SourcePosition.Phase#FIRST}) are ordered after it.</li>
 * </ul>
 *
 * <p>Bound to one connection; not thread-safe (the sink's apply thread owns it).
 */
final class TablePositions {
    static final String TABLE = SinkOptions.TABLE_POSITIONS_TABLE;

    private final Connection connection;
    private final Dialect dialect;
    private boolean ready;

    TablePositions(Connection connection, Dialect dialect) {
        this.connection = connection;
        this.dialect = dialect;
    }

    Connection connection() {
        return connection;
    }

    /** The remembered positions of every table (creating the table first, a DDL committed on its own). */
    BatchPlan.TableMarks marks() throws SQLException {
        return read();
    }

    /**
     * Raises each table's {@code snapshot_at} to the newest snapshot row of it in {@code events}, inside the caller's
     * data transaction. Runs after the batch's DDL ({@link TargetTables}), whose commit must never make the mark
     * durable while the batch's rows roll back.
     *
     * @param marks the positions read for this batch's plan (a mark already as new is not written again)
     * @param names the target table of each source table
     */
    void raiseSnapshots(List<ChangeEvent> events, BatchPlan.TableMarks marks, TargetTableNames names) throws SQLException {
        Map<String, Long> snapshots = new HashMap<>();
        for (ChangeEvent e : events) {
            if (e.position() instanceof SourcePosition.Wal w && w.phase() == SourcePosition.Phase.SNAPSHOT) {
                snapshots.merge(names.of(e.table()), w.order(), (a, b) -> Long.compareUnsigned(a, b) >= 0 ? a : b);
            }
        }
        for (Map.Entry<String, Long> s : snapshots.entrySet()) {
            Long stored = marks.snapshotAt().get(s.getKey());
            if (stored == null || Long.compareUnsigned(stored, s.getValue()) < 0) {
                upsert(s.getKey(), "snapshot_at", new SourcePosition.Wal(s.getValue(), SourcePosition.Phase.SNAPSHOT, 0));
            }
        }
    }

    /**
     * Applies a truncate of {@code table} at {@code position} inside the caller's transaction: remembers the position
     * and deletes the rows older than it. Rows without a position (written before Tidemark tracked positions) count as
     * older. A truncate without a position empties the table.
     *
     * <p>Example: {@code DELETE FROM "orders" WHERE "__tidemark_position" IS NULL OR "__tidemark_position" < ?}.
     */
    int truncate(String table, boolean tableExists, String positionColumn, SourcePosition position) throws SQLException {
        if (position instanceof SourcePosition.Unknown) {
            if (!tableExists) {
                return 0;
            }
            try (Statement s = connection.createStatement()) {
                return s.executeUpdate("DELETE FROM " + q(table));
            }
        }
        upsert(table, "truncated_at", position);
        if (!tableExists) {
            return 0;
        }
        try (PreparedStatement ps = connection.prepareStatement("DELETE FROM " + q(table) + " WHERE " + q(positionColumn)
                + " IS NULL OR " + q(positionColumn) + " < ?")) {
            ps.setString(1, position.encode());
            return ps.executeUpdate();
        }
    }

    /**
     * Applies capture's snapshot sweep of {@code table} at {@code position} inside the caller's transaction: remembers
     * the position as {@link #truncate} does and deletes the rows with an older position (rows the snapshot no longer
     * holds). Rows without a position go too only from a table the sink created ({@code created}: a row put there by
     * hand, or written before positions were tracked); in a table it did not create they are the table's own rows,
     * which the sink never wrote from the source (it only gave the table the position column), and stay. A sweep
     * without a position removes nothing.
     *
     * <p>Example: {@code DELETE FROM "orders" WHERE "__tidemark_position" < ?} ({@code … IS NULL OR … < ?} if created).
     */
    int sweep(String table, boolean tableExists, boolean created, String positionColumn, SourcePosition position) throws SQLException {
        if (position instanceof SourcePosition.Unknown) {
            return 0;
        }
        upsert(table, "truncated_at", position);
        if (!tableExists) {
            return 0;
        }
        String older = q(positionColumn) + " < ?";
        try (PreparedStatement ps = connection.prepareStatement("DELETE FROM " + q(table) + " WHERE "
                + (created ? q(positionColumn) + " IS NULL OR " + older : older))) {
            ps.setString(1, position.encode());
            return ps.executeUpdate();
        }
    }

    private BatchPlan.TableMarks read() throws SQLException {
        ensureTable();
        Map<String, SourcePosition> truncated = new HashMap<>();
        Map<String, Long> snapshot = new HashMap<>();
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + q("table_name") + ", " + q("truncated_at") + ", " + q("snapshot_at")
                     + " FROM " + q(TABLE))) {
            while (rs.next()) {
                String table = rs.getString(1);
                if (rs.getString(2) != null) {
                    truncated.put(table, stored(table, "truncated_at", rs.getString(2)));
                }
                if (rs.getString(3) != null) {
                    snapshot.put(table, snapshotLsn(table, rs.getString(3)));
                }
            }
        }
        return new BatchPlan.TableMarks(truncated, snapshot);
    }

    /** The snapshot LSN of a stored snapshot position ({@code lsn:<16 hex>:v2:0:…}). */
    private static long snapshotLsn(String table, String encoded) {
        if (stored(table, "snapshot_at", encoded) instanceof SourcePosition.Wal w && w.phase() == SourcePosition.Phase.SNAPSHOT) {
            return w.order();
        }
        throw new IllegalStateException(TABLE + " row of " + table + ": snapshot_at '" + encoded
                + "' is not a snapshot position (expected lsn:<16 hex>:v2:0:<16 hex>)");
    }

    private static SourcePosition stored(String table, String column, String encoded) {
        try {
            return SourcePosition.decode(encoded);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(TABLE + " row of " + table + ", column " + column + ": " + e.getMessage(), e);
        }
    }

    /**
     * Raises one column of a table's row (inserting the row if absent); never moves a position backwards: the
     * {@code <} compares the encodings as bytes, which is {@link SourcePosition#compareTo} order.
     */
    private void upsert(String table, String column, SourcePosition position) throws SQLException {
        String encoded = position.encode();
        ensureTable();
        String now = Instant.now().toString();
        try (PreparedStatement insert = connection.prepareStatement(dialect.upsert(TABLE,
                List.of("table_name", column, "updated_at"), List.of("table_name"), List.of(), null))) {
            insert.setString(1, table);
            insert.setString(2, encoded);
            insert.setString(3, now);
            if (insert.executeUpdate() > 0) {
                return;
            }
        }
        try (PreparedStatement update = connection.prepareStatement("UPDATE " + q(TABLE) + " SET " + q(column) + " = ?, "
                + q("updated_at") + " = ? WHERE " + q("table_name") + " = ? AND (" + q(column) + " IS NULL OR "
                + q(column) + " < ?)")) {
            update.setString(1, encoded);
            update.setString(2, now);
            update.setString(3, table);
            update.setString(4, encoded);
            update.executeUpdate();
        }
    }

    /** Creates the table once per connection; the DDL commits on its own, before the batch writes anything. */
    private void ensureTable() throws SQLException {
        if (ready) {
            return;
        }
        String ddl = "CREATE TABLE IF NOT EXISTS " + q(TABLE) + " (" + q("table_name") + " " + dialect.textType()
                + " NOT NULL PRIMARY KEY, " + q("truncated_at") + " " + dialect.positionType() + ", "
                + q("snapshot_at") + " " + dialect.positionType() + ", " + q("updated_at") + " " + dialect.textType() + ")";
        try (Statement s = connection.createStatement()) {
            s.execute(ddl);
            connection.commit();
        } catch (SQLException e) {
            connection.rollback(); // a concurrent sink instance may have created it first
            try (Statement s = connection.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM " + q(TABLE))) {
                connection.commit();
            } catch (SQLException missing) {
                connection.rollback();
                e.addSuppressed(missing);
                throw e;
            }
        }
        ready = true;
    }

    private String q(String identifier) {
        return dialect.quote(identifier);
    }
}
