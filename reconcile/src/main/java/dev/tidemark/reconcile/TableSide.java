package dev.tidemark.reconcile;

import dev.tidemark.jdbc.Database;
import dev.tidemark.jdbc.ValueKind;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One side of a comparison: a connection, the table on it and the compared columns as that side names them. Reads
 * rows as canonical text ({@link CanonicalValues#ofText}) in key ranges, whole or ordered by key, and looks rows up
 * by key. This class builds the SQL and owns the read transaction; the rows come through the {@link RowReader} of
 * the side's engine ({@link Database#readPath()}: PostgreSQL's COPY, SQLite's row text, streamed result sets
 * elsewhere). Everything that differs between engines comes from its {@link Database}.
 *
 * <p>Not thread-safe: one thread at a time (the reconciler gives each side its own thread).
 */
final class TableSide implements AutoCloseable {

    /** Receives each row's first key and hash. */
    interface HashSink {
        void accept(long firstKey, long hash);

        /** Forget every row received so far: the scan starts over. */
        void restart();
    }

    /** Receives rows; {@code values} is reused between calls. */
    @FunctionalInterface
    interface RowSink {
        void accept(String[] values);
    }

    final String role;
    final Database database;
    final Connection connection;
    private final boolean owned;
    private final boolean autoCommitBefore;
    private final String tableName;
    private final SideQuery query;
    private final RowReader reader;
    private final String live;
    private final String orderBy;
    private final TableShape shape;

    private TableSide(String role, Database database, Connection connection, boolean owned, TableShape shape) throws SQLException {
        this.role = role;
        this.shape = shape;
        this.database = database;
        this.connection = connection;
        this.owned = owned;
        this.autoCommitBefore = connection.getAutoCommit();
        boolean source = role.equals("source");
        String table = source ? qualified(database, shape.source().id().schema(), shape.source().id().table()) : database.quote(shape.targetTable());
        this.tableName = source ? shape.source().id().table() : shape.targetTable();
        List<String> cols = new ArrayList<>();
        List<ValueKind> kinds = new ArrayList<>();
        for (TableShape.Compared c : shape.columns()) {
            cols.add(database.quote(source ? c.name() : c.targetName()));
            kinds.add(c.kind());
        }
        List<String> order = new ArrayList<>();
        for (int i : shape.keyIndex()) {
            order.add(database.orderTerm(cols.get(i), shape.columns().get(i).kind()));
        }
        this.query = new SideQuery(connection, table, cols, kinds, shape.keyIndex()[0], shape.keyIndex().length);
        this.reader = RowReader.of(database.readPath(), query);
        this.orderBy = String.join(", ", order);
        this.live = !source && shape.targetDeleted() != null ? database.quote(shape.targetDeleted()) + " IS NOT TRUE" : null;
        if (database.readsInTransaction()) {
            // cursors (PostgreSQL) and streaming (MariaDB) need a transaction; PostgreSQL's SET LOCAL too
            connection.setAutoCommit(false);
        }
        if (owned) {
            database.configureReadSession(connection);
        }
    }

    static TableSide open(String role, Database database, Connection connection, boolean owned, TableShape shape) throws SQLException {
        return new TableSide(role, database, connection, owned, shape);
    }

    private static String qualified(Database database, String schema, String table) {
        return schema.isEmpty() ? database.quote(table) : database.quote(schema) + "." + database.quote(table);
    }

    int columnCount() {
        return query.kinds().size();
    }

    boolean isSource() {
        return role.equals("source");
    }

    /** The table as SQL (quoted, qualified on the source). */
    String tableSql() {
        return query.table();
    }

    /** The compared columns as SQL, in comparison order. */
    List<String> columnsSql() {
        return query.columns();
    }

    /** {@code WHERE} over the first key's range and the live-row filter (or "" when there is nothing to filter). */
    String whereSql(Long lo, Long hi) {
        return where(lo, hi);
    }

    /** Commits the read transaction where there is one. */
    void finishRead() throws SQLException {
        endRead();
    }

    /** Smallest and largest value of the first key column among live rows, or null when there are none. */
    long[] bounds() throws SQLException {
        String firstKey = query.firstKey();
        String sql = "SELECT MIN(" + firstKey + "), MAX(" + firstKey + ") FROM " + query.table() + where(null, null);
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            long min = rs.getLong(1);
            boolean empty = rs.wasNull();
            long max = rs.getLong(2);
            return empty ? null : new long[] {min, max};
        } finally {
            endRead();
        }
    }

    /** The statistics' row estimate, or -1 where there is none (SQLite, never-analysed tables). */
    long estimatedRows() throws SQLException {
        try {
            return database.estimatedRows(connection, query.table(), tableName);
        } catch (SQLException e) {
            return -1; // only an estimate
        } finally {
            endRead();
        }
    }

    /** The WAL position on PostgreSQL ({@code 0/16B3748}), null elsewhere or when the server cannot say. */
    String position() {
        Optional<String> sql = database.positionQuery();
        if (sql.isEmpty()) {
            return null;
        }
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql.get())) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            return null; // e.g. a standby in recovery
        } finally {
            try {
                endRead();
            } catch (SQLException ignored) {
                // the read already failed or succeeded; nothing to keep
            }
        }
    }

    /**
     * Streams the live rows whose first key lies in {@code [lo, hi]} (both null: the whole table), in key order when
     * {@code ordered}, as canonical text.
     *
     * @return rows read
     */
    long read(Long lo, Long hi, boolean ordered, RowSink sink) throws SQLException {
        try {
            return reader.read(query.selectAll(where(lo, hi), ordered ? " ORDER BY " + orderBy : ""), sink);
        } finally {
            endRead();
        }
    }

    /**
     * Streams the live rows whose first key (an integer) lies in {@code [lo, hi]} (both null: the whole table), in no
     * particular order, handing each row's first key and hash to {@code sink}: the hot path of segment checksums.
     * The hash equals {@link RowHash#of} over the row's {@link CanonicalValues#ofText} values whichever way the row
     * was read (see {@link RowReader#hash}).
     *
     * @return rows read
     */
    long hashRows(Long lo, Long hi, HashSink sink) throws SQLException {
        return hashRows(lo, hi, false, sink);
    }

    /** As {@link #hashRows(Long, Long, HashSink)}, in key order when {@code ordered}. */
    long hashRows(Long lo, Long hi, boolean ordered, HashSink sink) throws SQLException {
        try {
            return reader.hash(where(lo, hi), ordered ? " ORDER BY " + orderBy : "", sink);
        } finally {
            endRead();
        }
    }

    private String where(Long lo, Long hi) {
        List<String> terms = new ArrayList<>();
        if (lo != null) {
            terms.add(query.firstKey() + " >= " + lo);
        }
        if (hi != null) {
            terms.add(query.firstKey() + " <= " + hi);
        }
        if (live != null) {
            terms.add(live);
        }
        return terms.isEmpty() ? "" : " WHERE " + String.join(" AND ", terms);
    }

    /** Reads the live rows with the given keys (canonical text per key column), in batches. */
    void lookup(List<RowKey> keys, RowSink sink) throws SQLException {
        int per = query.keyCount() == 1 ? 500 : 100;
        String[] values = new String[query.kinds().size()];
        try {
            for (int from = 0; from < keys.size(); from += per) {
                KeyQuery q = KeyQuery.of(database, shape, isSource(), keys.subList(from, Math.min(keys.size(), from + per)));
                String sql = "SELECT " + query.select() + " FROM " + query.table() + " WHERE " + q.where() + (live != null ? " AND " + live : "");
                try (PreparedStatement ps = connection.prepareStatement(sql)) {
                    q.bind(ps, 1);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            for (int i = 0; i < values.length; i++) {
                                values[i] = CanonicalValues.readText(rs, i + 1, query.kinds().get(i));
                            }
                            sink.accept(values);
                        }
                    }
                }
            }
        } finally {
            endRead();
        }
    }

    /** Ends the read transaction on engines that need one (a commit: reads change nothing). */
    private void endRead() throws SQLException {
        if (!connection.getAutoCommit()) {
            connection.commit();
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
            if (!owned && connection.getAutoCommit() != autoCommitBefore) {
                connection.setAutoCommit(autoCommitBefore);
            }
        } finally {
            if (owned) {
                connection.close();
            }
        }
    }
}
