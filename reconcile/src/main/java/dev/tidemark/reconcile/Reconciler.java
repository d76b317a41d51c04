package dev.tidemark.reconcile;

import dev.tidemark.jdbc.Database;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.JdbcEndpoints;
import dev.tidemark.jdbc.UsageException;
import dev.tidemark.jdbc.ValueKind;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>How (see docs/reconcile.md):
 * <ol>
 *   <li>Integer first key column: the key range {@code [min, max]} of both sides is cut into segments of about
 *       {@code segmentRows} rows. Each side computes every segment's checksum (row count + sum of row hashes) in one
 *       pass: inside the database where both engines can ({@link SqlChecksums}), else by streaming the rows once and
 *       hashing them here ({@link SegmentChecksums.Streamed}; PostgreSQL through {@code COPY}).</li>
 *   <li>Segments whose checksums differ are bisected (in-database checksums) until they hold about
 *       {@code segmentRows} rows, then compared row by row: both sides read in key order and merged. Streamed
 *       segments go straight to the row comparison, which reads no more than a bisection would.</li>
 *   <li>Any other key: both sides are read whole in key order and merged.</li>
 *   <li>Keys found different are re-checked after the settle interval, one lookup per side; only keys still
 *       different are reported, and the report says at which source position and time it holds.</li>
 * </ol>
 * Memory: per-segment counters, a bounded queue of rows per side during merges, and the listed keys.
 *
 * <p>Parts: {@link SegmentScan} (step 1 and 2, decisions by the pure {@link SegmentPlanner}), {@link RowMerge} (the
 * row-by-row merge-join of steps 2 and 3: a {@link RowStream} per side into {@link MergeJoin}), {@link Recheck}
 * (step 4's decision). This class opens the sides, runs the steps in order and builds the result.
 *
 * <p>Thread-safety: each call is independent; a call reads each side on its own thread and returns only when both
 * are done.
 */
public final class Reconciler {
    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    private final ReconcileRequest request;
    private final SideThreads threads;
    private final ScanProgress progress = new ScanProgress();
    private TableShape shape;
    private TableSide source;
    private TableSide target;
    private KeyOrder order;

    private Reconciler(ReconcileRequest request) {
        this.request = request;
        this.threads = new SideThreads(request.sourceTable().toString());
    }

    /**
     * Compares {@code request.sourceTable()} with {@code request.targetTable()}.
     *
     * @throws IllegalArgumentException when the request does not fit the tables (no such table or column, no key),
     *                                  naming table, column and URL
     * @throws SQLException             when a database fails
     */
    public static ReconcileResult reconcile(ReconcileRequest request) throws SQLException {
        Reconciler r = new Reconciler(request);
        try {
            return r.run();
        } catch (SQLException e) {
            throw new SQLException("reconcile " + request.sourceTable() + " (source " + request.source() + ") with " + request.targetTable()
                    + " (target " + request.target() + "): " + e.getMessage(), e.getSQLState(), e);
        } finally {
            r.threads.close();
        }
    }

    private ReconcileResult run() throws SQLException {
        long t0 = System.nanoTime();
        Instant started = Instant.now();
        openSides();
        try (TableSide s = source; TableSide t = target) {
            String startAt = at(source.position(), started);
            order = new KeyOrder(shape.keyKinds());
            Differences found = new Differences(request.keyLimit());
            String method = scan(found);
            request.listener().scanned((int) Math.min(Integer.MAX_VALUE, found.total()));
            int rechecked = found.listed().size();
            if (rechecked > 0) {
                settle();
            }
            String position = source.position();
            Instant heldAt = Instant.now();
            Differences still = rechecked > 0 ? recheck(found) : found;
            int settledAway = rechecked - still.listed().size();
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            // counts only: keys are row values, which stay below INFO
            log.info("reconcile {} → {}: {} source rows, {} target rows; missing {}, surplus {}, changed {} ({} re-checked, {} settled) in {} ms",
                    request.sourceTable(), request.targetTable(), progress.sourceRows, progress.targetRows, still.missingCount,
                    still.surplusCount, still.changedCount, rechecked, settledAway, took.toMillis());
            List<RowKey> changed = sorted(still.changed);
            List<ChangedRow> changedRows = changed.stream().map(still.changedRows::get).filter(java.util.Objects::nonNull).toList();
            return new ReconcileResult(request.sourceTable().toString(), request.targetTable(), shape.keyColumns(), progress.sourceRows,
                    progress.targetRows, sorted(still.missing), sorted(still.surplus), changed, still.missingCount,
                    still.surplusCount, still.changedCount, at(position, heldAt), heldAt, started, rechecked, settledAway, method,
                    progress.stats(took), startAt, shape.keyKinds(), changedRows);
        }
    }

    /** Checks and opens both sides and reads their shape; on failure, closes what it opened. */
    private void openSides() throws SQLException {
        Database srcEngine = Databases.forUrl(request.source().jdbcUrl());
        Database tgtEngine = Databases.forUrl(request.target().jdbcUrl());
        check(request.source(), JdbcEndpoints.Side.SOURCE);
        check(request.target(), JdbcEndpoints.Side.TARGET);
        Connection src = open(request.source(), JdbcEndpoints.Side.SOURCE);
        Connection tgt = null;
        try {
            tgt = open(request.target(), JdbcEndpoints.Side.TARGET);
            shape = TableShape.resolve(request, src, srcEngine, tgt, tgtEngine);
            source = TableSide.open("source", srcEngine, src, request.source().owned(), shape);
            target = TableSide.open("target", tgtEngine, tgt, request.target().owned(), shape);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(src, request.source().owned());
            closeQuietly(tgt, request.target().owned());
            throw e;
        }
    }

    /** Steps 1 to 3: finds every difference, and returns the method that did ({@code merged} for non-integer keys). */
    private String scan(Differences found) throws SQLException {
        RowMerge merge = new RowMerge(request, shape, order, source, target, threads, progress);
        String method;
        if (shape.firstKeyKind() == ValueKind.INTEGER) {
            SegmentChecksums checksums = SqlChecksums.supports(shape, source.database, target.database)
                    ? new SqlChecksums(shape, source.database, target.database) : new SegmentChecksums.Streamed();
            SegmentScan scan = new SegmentScan(request, source, target, checksums, threads, progress, merge);
            scan.run(found);
            method = scan.checksums().method();
        } else {
            progress.showBar(request.progress(), "reconcile " + request.sourceTable(), source.estimatedRows());
            merge.merge(null, null, found);
            progress.segments = 1;
            method = "merged";
        }
        progress.finish();
        log.debug("{}: scan found {} differences ({} segments, {} bisected, {} compared row by row)", request.sourceTable(),
                found.total(), progress.segments, progress.bisected, progress.fetchedSegments);
        return method;
    }

    /** Where a result holds: the source position, else the time. */
    private static String at(String position, Instant time) {
        return position != null ? "lsn:" + position : "time:" + time;
    }

    /** Both sides checked before either is opened: a wrong URL opens (and creates) nothing. */
    private static void check(ReconcileRequest.Endpoint e, JdbcEndpoints.Side side) {
        if (e.owned()) {
            JdbcEndpoints.readRefusal(side, e.jdbcUrl()).ifPresent(why -> {
                throw new UsageException(why);
            });
        }
    }

    private static Connection open(ReconcileRequest.Endpoint e, JdbcEndpoints.Side side) throws SQLException {
        try {
            return e.open();
        } catch (SQLException ex) {
            throw new SQLException(JdbcEndpoints.connectFailure(side, e.jdbcUrl(), ex), ex.getSQLState(), ex);
        }
    }

    private void settle() {
        if (request.settle().isZero()) {
            return;
        }
        try {
            Thread.sleep(request.settle().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the settle interval", e);
        }
    }

    /** Looks the found keys up again on both sides and keeps those still different, with what changed. */
    private Differences recheck(Differences found) throws SQLException {
        List<RowKey> keys = found.listed();
        SideThreads.Both<Map<RowKey, String[]>, Map<RowKey, String[]>> both = threads.both(() -> rows(source, keys),
                () -> rows(target, keys));
        List<String> columns = shape.columns().stream().map(TableShape.Compared::name).toList();
        return Recheck.still(found, both.source(), both.target(), columns, request.keyLimit());
    }

    /** The canonical values of the rows of {@code keys} on one side. */
    private Map<RowKey, String[]> rows(TableSide side, List<RowKey> keys) throws SQLException {
        Set<RowKey> wanted = new HashSet<>(keys);
        Map<RowKey, String[]> out = new HashMap<>();
        int[] keyIndex = shape.keyIndex();
        side.lookup(keys, values -> {
            String[] key = new String[keyIndex.length];
            for (int i = 0; i < keyIndex.length; i++) {
                key[i] = values[keyIndex[i]];
            }
            RowKey k = new RowKey(Arrays.asList(key));
            if (wanted.contains(k)) {
                out.put(k, values.clone()); // the reader reuses its array
            }
        });
        return out;
    }

    private List<RowKey> sorted(List<RowKey> keys) {
        List<RowKey> out = new ArrayList<>(keys);
        out.sort((a, b) -> order.compare(order.sortKey(a.values().toArray(String[]::new)), order.sortKey(b.values().toArray(String[]::new))));
        return out;
    }

    private static void closeQuietly(Connection c, boolean owned) {
        if (c != null && owned) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // failing already
            }
        }
    }
}
