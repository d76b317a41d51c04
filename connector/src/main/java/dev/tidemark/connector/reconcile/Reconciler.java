package dev.tidemark.connector.reconcile;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Compares a source table with its target copy by key and row checksum, across engines (PostgreSQL, MariaDB,
 * SQLite in any combination). Counts prove nothing; only keys and checksums do.
 *
 * <p>Entry point for callers without the CLI ({@code tidemark compare}, tests):
 * <pre>{@code
 * ReconcileResult r = Reconciler.reconcile(ReconcileRequest.of(
 *         Endpoint.of(sourceConnection), new TableId("public", "orders"),
 *         Endpoint.of("jdbc:sqlite:target.db", new Properties()), "orders")
 *     .withSettle(Duration.ofSeconds(1)));
 * if (!r.equal()) { r.missing(); r.surplus(); r.changed(); }
 * }</pre>
 *
 * <p>Thread-safety: each call is independent; a call uses one connection per side on its own threads and returns
 * only when it is done with them.
 */
public final class Reconciler {
    private Reconciler() {
    }

    /**
     * Compares {@code request.sourceTable()} with {@code request.targetTable()}.
     *
     * @throws IllegalArgumentException when the request does not fit the tables (no such table or column, no key)
     * @throws SQLException             when a database fails
     */
    public static ReconcileResult reconcile(ReconcileRequest request) throws SQLException {
        // first version: the in-memory comparison, until the segmented engine lands
        Instant started = Instant.now();
        long t0 = System.nanoTime();
        Connection src = request.source().open();
        try {
            Connection tgt = request.target().open();
            try {
                List<String> keys = request.keyColumns().isEmpty() ? primaryKey(src, request) : request.keyColumns();
                TableComparison.QuoteStyle quotes = request.target().jdbcUrl().startsWith("jdbc:mariadb:")
                        || request.target().jdbcUrl().startsWith("jdbc:mysql:") ? TableComparison.QuoteStyle.BACKTICK
                        : TableComparison.QuoteStyle.DOUBLE;
                ComparisonResult c = TableComparison.compare(src, request.sourceTable(), keys, tgt, request.targetTable(), quotes);
                return new ReconcileResult(request.sourceTable().toString(), request.targetTable(), keys, c.sourceRows(),
                        c.targetRows(), keys(c.missing()), keys(c.surplus()), keys(c.changed()), c.missing().size(),
                        c.surplus().size(), c.changed().size(), "time:" + Instant.now(), Instant.now(), started, 0, 0,
                        "in-memory", new ReconcileResult.Stats(1, 0, 1, c.sourceRows() + c.targetRows(),
                        Duration.ofNanos(System.nanoTime() - t0)));
            } finally {
                if (request.target().owned()) {
                    tgt.close();
                }
            }
        } finally {
            if (request.source().owned()) {
                src.close();
            }
        }
    }

    private static List<RowKey> keys(List<String> texts) {
        return texts.stream().map(t -> RowKey.of(t.split(",", -1))).toList();
    }

    private static List<String> primaryKey(Connection c, ReconcileRequest request) throws SQLException {
        TreeMap<Integer, String> pk = new TreeMap<>();
        String schema = request.sourceTable().schema().isEmpty() ? null : request.sourceTable().schema();
        try (ResultSet rs = c.getMetaData().getPrimaryKeys(null, schema, request.sourceTable().table())) {
            while (rs.next()) {
                pk.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
            }
        }
        if (pk.isEmpty()) {
            throw new IllegalArgumentException("source table " + request.sourceTable() + " has no primary key; give the key columns");
        }
        return new ArrayList<>(pk.values());
    }
}
