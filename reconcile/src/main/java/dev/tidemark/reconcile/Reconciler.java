package dev.tidemark.reconcile;

import dev.tidemark.jdbc.Database;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.ValueKind;

import dev.tidemark.connector.watermark.ProgressBar;
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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>Thread-safety: each call is independent; a call reads each side on its own thread and returns only when both
 * are done.
 */
public final class Reconciler {
    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
    private static final int MAX_SEGMENTS = 1 << 20;
    /** Most first-pass segments merged in one range query. */
    private static final long MAX_COALESCED = 16;
    private static final int BATCH = 512;
    /** Below this many rows a run is short: no progress bar. */
    private static final long PROGRESS_FROM_ROWS = 200_000;

    private final ReconcileRequest request;
    private final ExecutorService threads;
    private TableShape shape;
    private TableSide source;
    private TableSide target;
    private KeyOrder order;
    private SegmentChecksums checksums;
    private ProgressBar bar;
    private final AtomicLong progressRows = new AtomicLong();
    private long segments;
    private long bisected;
    private long fetchedSegments;
    private long fetchedRows;
    private long sourceRows;
    private long targetRows;

    private Reconciler(ReconcileRequest request) {
        this.request = request;
        AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "reconcile-" + request.sourceTable() + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
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
            r.threads.shutdownNow();
        }
    }

    private ReconcileResult run() throws SQLException {
        long t0 = System.nanoTime();
        Instant started = Instant.now();
        Database srcEngine = Databases.forUrl(request.source().jdbcUrl());
        Database tgtEngine = Databases.forUrl(request.target().jdbcUrl());
        Connection src = open(request.source(), "source");
        Connection tgt = null;
        try {
            tgt = open(request.target(), "target");
            shape = TableShape.resolve(request, src, srcEngine, tgt, tgtEngine);
            source = TableSide.open("source", srcEngine, src, request.source().owned(), shape);
            target = TableSide.open("target", tgtEngine, tgt, request.target().owned(), shape);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(src, request.source().owned());
            closeQuietly(tgt, request.target().owned());
            throw e;
        }
        try (TableSide s = source; TableSide t = target) {
            String startPosition = source.position();
            order = new KeyOrder(shape.keyKinds());
            checksums = SqlChecksums.supports(shape, srcEngine, tgtEngine)
                    ? new SqlChecksums(shape, srcEngine, tgtEngine) : new SegmentChecksums.Streamed();
            Differences found = new Differences(request.keyLimit());
            if (shape.firstKeyKind() == ValueKind.INTEGER) {
                segmented(found);
            } else {
                long estimate = source.estimatedRows();
                if (request.progress() != null && estimate >= PROGRESS_FROM_ROWS) {
                    bar = new ProgressBar(request.progress(), "reconcile " + request.sourceTable(), estimate);
                }
                merge(null, null, found);
                segments = 1;
            }
            if (bar != null) {
                bar.finish(progressRows.get());
            }
            log.debug("{}: scan found {} differences ({} segments, {} bisected, {} compared row by row)", request.sourceTable(),
                    found.total(), segments, bisected, fetchedSegments);
            request.listener().scanned((int) Math.min(Integer.MAX_VALUE, found.total()));
            int rechecked = found.listed().size();
            if (rechecked > 0) {
                settle();
            }
            String position = source.position();
            Instant heldAt = Instant.now();
            Differences still = rechecked > 0 ? recheck(found) : found;
            int settledAway = rechecked - still.listed().size();
            // counts only: keys are row values, which stay below INFO
            log.info("reconcile {} → {}: {} source rows, {} target rows; missing {}, surplus {}, changed {} ({} re-checked, {} settled) in {} ms",
                    request.sourceTable(), request.targetTable(), sourceRows, targetRows, still.missingCount, still.surplusCount,
                    still.changedCount, rechecked, settledAway, (System.nanoTime() - t0) / 1_000_000);
            return new ReconcileResult(request.sourceTable().toString(), request.targetTable(), shape.keyColumns(), sourceRows,
                    targetRows, sorted(still.missing), sorted(still.surplus), sorted(still.changed), still.missingCount,
                    still.surplusCount, still.changedCount, position != null ? "lsn:" + position : "time:" + heldAt, heldAt,
                    started, rechecked, settledAway, shape.firstKeyKind() == ValueKind.INTEGER ? checksums.method() : "merged",
                    new ReconcileResult.Stats(segments, bisected, fetchedSegments, fetchedRows, Duration.ofNanos(System.nanoTime() - t0)),
                    startPosition != null ? "lsn:" + startPosition : "time:" + started);
        }
    }

    private static Connection open(ReconcileRequest.Endpoint e, String role) throws SQLException {
        try {
            return e.open();
        } catch (SQLException ex) {
            throw new SQLException("cannot connect to the " + role + ": " + ex.getMessage(), ex.getSQLState(), ex);
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

    /** Segments over the integer key range, checksummed on both sides; mismatches bisected or merged. */
    private void segmented(Differences found) throws SQLException {
        Object[] bounds = call(source::bounds, target::bounds);
        long[] s = (long[]) bounds[0];
        long[] t = (long[]) bounds[1];
        if (s == null && t == null) {
            return;
        }
        long lo = s == null ? t[0] : t == null ? s[0] : Math.min(s[0], t[0]);
        long hi = s == null ? t[1] : t == null ? s[1] : Math.max(s[1], t[1]);
        Object[] estimates = call(source::estimatedRows, target::estimatedRows);
        long span = hi - lo + 1 <= 0 ? Long.MAX_VALUE : hi - lo + 1;
        long srcEst = (long) estimates[0] > 0 ? Math.min((long) estimates[0], span) : span;
        long tgtEst = (long) estimates[1] > 0 ? Math.min((long) estimates[1], span) : span;
        long rows = Math.max(srcEst, tgtEst);
        if (request.progress() != null && srcEst >= PROGRESS_FROM_ROWS) {
            bar = new ProgressBar(request.progress(), "reconcile " + request.sourceTable(), srcEst);
        }
        Bucketing root = Bucketing.of(lo, hi, Math.min(MAX_SEGMENTS, Math.max(1, (rows + request.segmentRows() - 1) / request.segmentRows())));
        if (checksums instanceof SqlChecksums && !SqlChecksums.fits(root)) {
            checksums = new SegmentChecksums.Streamed(); // keys spread over more than 2^63: Java arithmetic only
        }
        List<long[]> leaves = new ArrayList<>();
        compareSegments(root, true, leaves);
        // adjacent mismatching segments are merged together, up to a span the databases still read through the key's
        // index (a range over most of a table makes PostgreSQL sort it instead)
        for (long[] range : coalesce(leaves, root.width() > Long.MAX_VALUE / MAX_COALESCED ? Long.MAX_VALUE : root.width() * MAX_COALESCED)) {
            merge(range[0], range[1], found);
        }
    }

    private void compareSegments(Bucketing b, boolean whole, List<long[]> leaves) throws SQLException {
        segments += b.count();
        long base = progressRows.get();
        long t0 = System.nanoTime();
        long[] took = new long[2];
        Object[] both = call(() -> {
            SegmentChecksums.Checksums c = checksums.compute(source, b, whole ? null : b.lo(), whole ? null : b.hi(), n -> progress(base + n));
            took[0] = System.nanoTime() - t0;
            return c;
        }, () -> {
            SegmentChecksums.Checksums c = checksums.compute(target, b, whole ? null : b.lo(), whole ? null : b.hi(), n -> { });
            took[1] = System.nanoTime() - t0;
            return c;
        });
        log.debug("{}: {} {} segment checksums of [{}, {}]: source {} ms, target {} ms", request.sourceTable(), b.count(), checksums.method(),
                b.lo(), b.hi(), took[0] / 1_000_000, took[1] / 1_000_000);
        SegmentChecksums.Checksums s = (SegmentChecksums.Checksums) both[0];
        SegmentChecksums.Checksums t = (SegmentChecksums.Checksums) both[1];
        if (whole) {
            sourceRows = s.rows();
            targetRows = t.rows();
        }
        boolean bisect = checksums instanceof SqlChecksums;
        for (int i = 0; i < b.count(); i++) {
            if (s.same(t, i)) {
                continue;
            }
            long rows = Math.max(s.counts()[i], t.counts()[i]);
            long lo = b.segmentLo(i);
            long hi = b.segmentHi(i);
            if (bisect && rows > request.segmentRows() && hi != lo) {
                bisected++;
                long parts = Math.min(64, Math.max(2, (rows + request.segmentRows() - 1) / request.segmentRows()));
                compareSegments(Bucketing.of(lo, hi, parts), false, leaves);
            } else {
                leaves.add(new long[] {lo, hi});
            }
        }
    }

    /** Adjacent leaf ranges become one range (one query per side instead of many), spanning at most {@code maxSpan} keys. */
    static List<long[]> coalesce(List<long[]> ranges, long maxSpan) {
        ranges.sort((a, b) -> Long.compare(a[0], b[0]));
        List<long[]> out = new ArrayList<>();
        for (long[] r : ranges) {
            long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && last[1] != Long.MAX_VALUE && last[1] + 1 == r[0] && r[1] - last[0] >= 0 && r[1] - last[0] < maxSpan) {
                last[1] = r[1];
            } else {
                out.add(new long[] {r[0], r[1]});
            }
        }
        return out;
    }

    private void progress(long rows) {
        progressRows.set(rows);
        if (bar != null) {
            bar.update(rows);
        }
    }

    /** One row in a merge: its key as canonical text and sortable values, and its hash. */
    private record Keyed(String[] key, Object[] sort, long hash) {
    }

    private static final Keyed END = new Keyed(new String[0], new Object[0], 0);

    /**
     * Reads both sides' live rows in {@code [lo, hi]} (null: all) in key order and merges them: a key on one side
     * only is missing or surplus, a key on both with different hashes is changed. Each side streams batches through a
     * small queue, so memory stays bounded however large the range.
     */
    private void merge(Long lo, Long hi, Differences found) throws SQLException {
        if (shape.keyIndex().length == 1 && shape.firstKeyKind() == ValueKind.INTEGER) {
            Differences local = new Differences(request.keyLimit());
            try {
                mergeIntegerKeys(lo, hi, local);
                found.addAll(local);
                return;
            } catch (StartOverException e) {
                fetchedSegments--; // counted again below
                log.debug("{}: merging [{}, {}] again through the per-column path", request.sourceTable(), lo, hi);
            }
        }
        mergeByText(lo, hi, found);
    }

    /** A side's fast path had to start over (SQLite text holding a separator): the merge is redone the slow way. */
    private static final class StartOverException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StartOverException() {
            super("start over", null, false, false);
        }
    }

    /**
     * The merge for a single integer key: rows travel as (key, hash) pairs of longs, read through the same fast
     * paths as the segment checksums; key text is built only for keys found different.
     */
    private void mergeIntegerKeys(Long lo, Long hi, Differences found) throws SQLException {
        fetchedSegments++;
        AtomicBoolean stop = new AtomicBoolean();
        BlockingQueue<Object> sq = new ArrayBlockingQueue<>(8);
        BlockingQueue<Object> tq = new ArrayBlockingQueue<>(8);
        long base = progressRows.get();
        Future<Long> sf = threads.submit(() -> producePairs(source, lo, hi, sq, stop, n -> progress(base + n)));
        Future<Long> tf = threads.submit(() -> producePairs(target, lo, hi, tq, stop, n -> { }));
        try {
            PairCursor sc = new PairCursor(sq, sf, "source");
            PairCursor tc = new PairCursor(tq, tf, "target");
            boolean a = sc.next();
            boolean b = tc.next();
            long srcCount = 0;
            long tgtCount = 0;
            while (a || b) {
                int c = !a ? 1 : !b ? -1 : Long.compare(sc.key, tc.key);
                if (c < 0) {
                    found.missing(RowKey.of(Long.toString(sc.key)));
                    a = sc.next();
                    srcCount++;
                } else if (c > 0) {
                    found.surplus(RowKey.of(Long.toString(tc.key)));
                    b = tc.next();
                    tgtCount++;
                } else {
                    if (sc.hash != tc.hash) {
                        found.changed(RowKey.of(Long.toString(sc.key)));
                    }
                    a = sc.next();
                    b = tc.next();
                    srcCount++;
                    tgtCount++;
                }
            }
            fetchedRows += srcCount + tgtCount;
            if (lo == null) {
                sourceRows = srcCount;
                targetRows = tgtCount;
            }
            sf.get();
            tf.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } finally {
            stop.set(true);
            sq.clear();
            tq.clear();
            awaitQuietly(sf);
            awaitQuietly(tf);
        }
    }

    private long producePairs(TableSide side, Long lo, Long hi, BlockingQueue<Object> queue, AtomicBoolean stop,
                              java.util.function.LongConsumer progress) throws Exception {
        long[][] batch = {new long[2 * BATCH]};
        int[] at = {0};
        long[] n = {0};
        try {
            side.hashRows(lo, hi, true, new TableSide.HashSink() {
                @Override
                public void accept(long key, long hash) {
                    batch[0][at[0]++] = key;
                    batch[0][at[0]++] = hash;
                    if (at[0] == batch[0].length) {
                        put(queue, batch[0], stop);
                        batch[0] = new long[2 * BATCH];
                        at[0] = 0;
                        progress.accept(n[0] += BATCH);
                    }
                }

                @Override
                public void restart() {
                    throw new StartOverException();
                }
            });
            if (at[0] > 0) {
                put(queue, java.util.Arrays.copyOf(batch[0], at[0]), stop);
            }
            put(queue, END, stop);
        } catch (RuntimeException | SQLException e) {
            if (!stop.get()) {
                queue.offer(e);
            }
            throw e;
        }
        return n[0];
    }

    /** Consumes one side's (key, hash) batches, checking that keys arrive strictly ascending. */
    private final class PairCursor {
        private final BlockingQueue<Object> queue;
        private final Future<Long> producer;
        private final String side;
        private long[] batch = new long[0];
        private int at;
        private boolean started;
        long key;
        long hash;

        PairCursor(BlockingQueue<Object> queue, Future<Long> producer, String side) {
            this.queue = queue;
            this.producer = producer;
            this.side = side;
        }

        /** Advances; false at the end. */
        boolean next() throws InterruptedException, SQLException, ExecutionException {
            while (at == batch.length) {
                Object o = queue.poll(200, TimeUnit.MILLISECONDS);
                if (o == null) {
                    if (producer.isDone() && queue.isEmpty()) {
                        producer.get();
                        throw new IllegalStateException("the " + side + " reader ended without finishing its rows");
                    }
                    continue;
                }
                if (o == END) {
                    return false;
                }
                if (o instanceof SQLException e) {
                    throw e;
                }
                if (o instanceof RuntimeException e) {
                    throw e;
                }
                batch = (long[]) o;
                at = 0;
            }
            long k = batch[at++];
            if (started && k <= key) {
                throw new IllegalStateException("the " + side + " returned key " + k + " after " + key + " for table "
                        + (side.equals("source") ? request.sourceTable() : request.targetTable()) + ": keys must be unique and sorted");
            }
            started = true;
            key = k;
            hash = batch[at++];
            return true;
        }
    }

    private void mergeByText(Long lo, Long hi, Differences found) throws SQLException {
        fetchedSegments++;
        AtomicBoolean stop = new AtomicBoolean();
        BlockingQueue<Object> sq = new ArrayBlockingQueue<>(8);
        BlockingQueue<Object> tq = new ArrayBlockingQueue<>(8);
        long base = progressRows.get();
        Future<Long> sf = threads.submit(() -> produce(source, lo, hi, sq, stop, n -> progress(base + n)));
        Future<Long> tf = threads.submit(() -> produce(target, lo, hi, tq, stop, n -> { }));
        try {
            Cursor sc = new Cursor(sq, sf, "source");
            Cursor tc = new Cursor(tq, tf, "target");
            Keyed a = sc.next();
            Keyed b = tc.next();
            long srcCount = 0;
            long tgtCount = 0;
            while (a != END || b != END) {
                int c = a == END ? 1 : b == END ? -1 : order.compare(a.sort(), b.sort());
                if (c < 0) {
                    found.missing(new RowKey(Arrays.asList(a.key())));
                    a = sc.next();
                    srcCount++;
                } else if (c > 0) {
                    found.surplus(new RowKey(Arrays.asList(b.key())));
                    b = tc.next();
                    tgtCount++;
                } else {
                    if (a.hash() != b.hash()) {
                        found.changed(new RowKey(Arrays.asList(a.key())));
                    }
                    a = sc.next();
                    b = tc.next();
                    srcCount++;
                    tgtCount++;
                }
            }
            fetchedRows += srcCount + tgtCount;
            if (lo == null) {
                sourceRows = srcCount;
                targetRows = tgtCount;
            }
            sf.get();
            tf.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } finally {
            stop.set(true);
            sq.clear();
            tq.clear();
            awaitQuietly(sf);
            awaitQuietly(tf);
        }
    }

    private long produce(TableSide side, Long lo, Long hi, BlockingQueue<Object> queue, AtomicBoolean stop,
                         java.util.function.LongConsumer progress) throws Exception {
        int[] keyIndex = shape.keyIndex();
        List<Keyed> batch = new ArrayList<>(BATCH);
        long[] n = {0};
        try {
            side.read(lo, hi, true, values -> {
                String[] key = new String[keyIndex.length];
                for (int i = 0; i < keyIndex.length; i++) {
                    key[i] = values[keyIndex[i]];
                }
                batch.add(new Keyed(key, order.sortKey(key), RowHash.of(values)));
                if (batch.size() == BATCH) {
                    put(queue, new ArrayList<>(batch), stop);
                    batch.clear();
                    progress.accept(n[0] += BATCH);
                }
            });
            if (!batch.isEmpty()) {
                put(queue, new ArrayList<>(batch), stop);
            }
            put(queue, END, stop);
        } catch (RuntimeException | SQLException e) {
            if (!stop.get()) {
                queue.offer(e);
            }
            throw e;
        }
        return n[0];
    }

    private static void put(BlockingQueue<Object> queue, Object item, AtomicBoolean stop) {
        try {
            while (!queue.offer(item, 100, TimeUnit.MILLISECONDS)) {
                if (stop.get()) {
                    throw new CancellationException();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException();
        }
    }

    /** The merge stopped early; the reader gives up quietly. */
    private static final class CancellationException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CancellationException() {
            super("merge stopped", null, false, false);
        }
    }

    /** Consumes one side's batches, checking that keys arrive strictly ascending. */
    private final class Cursor {
        private final BlockingQueue<Object> queue;
        private final Future<Long> producer;
        private final String side;
        private List<Keyed> batch = List.of();
        private int at;
        private Keyed last;

        Cursor(BlockingQueue<Object> queue, Future<Long> producer, String side) {
            this.queue = queue;
            this.producer = producer;
            this.side = side;
        }

        Keyed next() throws InterruptedException, SQLException, ExecutionException {
            while (at == batch.size()) {
                Object o = queue.poll(200, TimeUnit.MILLISECONDS);
                if (o == null) {
                    if (producer.isDone() && queue.isEmpty()) {
                        producer.get(); // surfaces a failure that never reached the queue
                        throw new IllegalStateException("the " + side + " reader ended without finishing its rows");
                    }
                    continue;
                }
                if (o == END) {
                    return END;
                }
                if (o instanceof SQLException e) {
                    throw e;
                }
                if (o instanceof RuntimeException e) {
                    throw e;
                }
                @SuppressWarnings("unchecked")
                List<Keyed> b = (List<Keyed>) o;
                batch = b;
                at = 0;
            }
            Keyed k = batch.get(at++);
            if (last != null && order.compare(last.sort(), k.sort()) >= 0) {
                throw new IllegalStateException("the " + side + " returned key " + Arrays.toString(k.key()) + " after "
                        + Arrays.toString(last.key()) + " for table " + (side.equals("source") ? request.sourceTable() : request.targetTable())
                        + " ordered by " + shape.keyColumns() + ": its ordering of these key values differs from byte order "
                        + "(or the key is not unique), so the two sides cannot be merged");
            }
            last = k;
            return k;
        }
    }

    /** Looks the found keys up again on both sides and keeps those still different. */
    private Differences recheck(Differences found) throws SQLException {
        List<RowKey> keys = found.listed();
        Object[] both = call(() -> hashes(source, keys), () -> hashes(target, keys));
        @SuppressWarnings("unchecked")
        Map<RowKey, Long> s = (Map<RowKey, Long>) both[0];
        @SuppressWarnings("unchecked")
        Map<RowKey, Long> t = (Map<RowKey, Long>) both[1];
        Differences still = new Differences(request.keyLimit());
        for (RowKey k : keys) {
            Long a = s.get(k);
            Long b = t.get(k);
            if (a != null && b == null) {
                still.missing(k);
            } else if (a == null && b != null) {
                still.surplus(k);
            } else if (a != null && !a.equals(b)) {
                still.changed(k);
            }
        }
        long[] unlisted = found.unlisted();
        still.missingCount += unlisted[0];
        still.surplusCount += unlisted[1];
        still.changedCount += unlisted[2];
        return still;
    }

    private Map<RowKey, Long> hashes(TableSide side, List<RowKey> keys) throws SQLException {
        Set<RowKey> wanted = new HashSet<>(keys);
        Map<RowKey, Long> out = new HashMap<>();
        int[] keyIndex = shape.keyIndex();
        side.lookup(keys, values -> {
            String[] key = new String[keyIndex.length];
            for (int i = 0; i < keyIndex.length; i++) {
                key[i] = values[keyIndex[i]];
            }
            RowKey k = new RowKey(Arrays.asList(key));
            if (wanted.contains(k)) {
                out.put(k, RowHash.of(values));
            }
        });
        return out;
    }

    private List<RowKey> sorted(List<RowKey> keys) {
        List<RowKey> out = new ArrayList<>(keys);
        out.sort((a, b) -> order.compare(order.sortKey(a.values().toArray(String[]::new)), order.sortKey(b.values().toArray(String[]::new))));
        return out;
    }

    /** Runs one task per side at the same time and returns both results. */
    private Object[] call(Callable<?> onSource, Callable<?> onTarget) throws SQLException {
        Future<?> s = threads.submit(onSource);
        Future<?> t = threads.submit(onTarget);
        try {
            return new Object[] {s.get(), t.get()};
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            awaitQuietly(s);
            awaitQuietly(t);
            throw rethrow(e.getCause());
        }
    }

    private static SQLException rethrow(Throwable cause) {
        if (cause instanceof SQLException e) {
            return e;
        }
        if (cause instanceof RuntimeException e) {
            throw e;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        return new SQLException(cause.getMessage(), cause);
    }

    private static void awaitQuietly(Future<?> f) {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | java.util.concurrent.CancellationException ignored) {
            // reported by the caller already
        }
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
