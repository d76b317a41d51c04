package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;
import java.sql.SQLException;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares both sides' live rows in a key range row by row: each side is read in key order on its own thread
 * ({@link RowStream}) and the two are merge-joined ({@link MergeJoin}). A single integer key travels as (key, hash)
 * pairs through the sides' fast hashing paths ({@link RowFormat.IntegerKeys}); any other key, or a fast path that had
 * to start over (SQLite text holding a separator), as canonical key text ({@link RowFormat.TextKeys}).
 *
 * <p>Not thread-safe: used by one reconcile run's own thread.
 */
final class RowMerge {
    private static final Logger log = LoggerFactory.getLogger(RowMerge.class);

    private final ReconcileRequest request;
    private final TableShape shape;
    private final TableSide source;
    private final TableSide target;
    private final SideThreads threads;
    private final ScanProgress progress;
    private final RowFormat.TextKeys textKeys;
    private final KeyOrder order;

    RowMerge(ReconcileRequest request, TableShape shape, KeyOrder order, TableSide source, TableSide target,
             SideThreads threads, ScanProgress progress) {
        this.request = request;
        this.shape = shape;
        this.order = order;
        this.source = source;
        this.target = target;
        this.threads = threads;
        this.progress = progress;
        this.textKeys = new RowFormat.TextKeys(order, shape.keyColumns());
    }

    /**
     * Merges both sides' live rows in {@code [lo, hi]} (null: no bound; both null: the whole tables, whose row counts
     * then become the scan's) into {@code found}.
     */
    void merge(Long lo, Long hi, Differences found) throws SQLException {
        if (shape.keyIndex().length == 1 && shape.firstKeyKind() == ValueKind.INTEGER) {
            Differences local = new Differences(request.keyLimit());
            try {
                join(lo, hi, new RowFormat.IntegerKeys(), side -> rows -> side.hashRows(lo, hi, true, new TableSide.HashSink() {
                    @Override
                    public void accept(long key, long hash) {
                        rows.accept(new RowFormat.KeyHash(key, hash));
                    }

                    @Override
                    public void restart() {
                        throw new StartOver();
                    }
                }), local);
                found.addAll(local);
                return;
            } catch (StartOver e) {
                progress.fetchedSegments--; // counted again below
                log.debug("{}: merging [{}, {}] again through the per-column path", request.sourceTable(), lo, hi);
            }
        }
        int[] keyIndex = shape.keyIndex();
        join(lo, hi, textKeys, side -> rows -> side.read(lo, hi, true, values -> {
            String[] key = new String[keyIndex.length];
            for (int i = 0; i < keyIndex.length; i++) {
                key[i] = values[keyIndex[i]];
            }
            rows.accept(new RowFormat.Keyed(key, order.sortKey(key), RowHash.of(values)));
        }), found);
    }

    /** How one side's rows of a kind are read. */
    @FunctionalInterface
    private interface SideReader<R> {
        RowStream.Reader<R> on(TableSide side);
    }

    private <R> void join(Long lo, Long hi, RowFormat<R> format, SideReader<R> reader, Differences found) throws SQLException {
        progress.fetchedSegments++;
        long base = progress.rows();
        LongConsumer sourceProgress = n -> progress.progress(base + n);
        try (RowStream<R> s = RowStream.start(threads, "source", request.sourceTable().toString(), format, reader.on(source), sourceProgress);
             RowStream<R> t = RowStream.start(threads, "target", request.targetTable(), format, reader.on(target), n -> { })) {
            MergeJoin.Counts counts = MergeJoin.join(s, t, format, found);
            progress.fetchedRows += counts.sourceRows() + counts.targetRows();
            if (lo == null) {
                progress.sourceRows = counts.sourceRows();
                progress.targetRows = counts.targetRows();
            }
            s.finish();
            t.finish();
        }
    }

    /** A side's fast path had to start over (SQLite text holding a separator): the merge is redone the slow way. */
    private static final class StartOver extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StartOver() {
            super("start over", null, false, false);
        }
    }
}
