package dev.tidemark.reconcile;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The comparison of a table whose first key column is an integer: the key range of both sides is cut into segments,
 * each side computes every segment's checksum in one pass, mismatching segments are bisected (in-database checksums)
 * or compared row by row ({@link RowMerge}). The decisions are {@link SegmentPlanner}'s; this class does the reading.
 *
 * <p>Not thread-safe: used by one reconcile run's own thread (each side's checksums are computed on its own thread).
 */
final class SegmentScan {
    private static final Logger log = LoggerFactory.getLogger(SegmentScan.class);

    private final ReconcileRequest request;
    private final TableSide source;
    private final TableSide target;
    private final SideThreads threads;
    private final ScanProgress progress;
    private final RowMerge merge;
    private SegmentChecksums checksums;

    SegmentScan(ReconcileRequest request, TableSide source, TableSide target, SegmentChecksums checksums, SideThreads threads,
                ScanProgress progress, RowMerge merge) {
        this.request = request;
        this.source = source;
        this.target = target;
        this.checksums = checksums;
        this.threads = threads;
        this.progress = progress;
        this.merge = merge;
    }

    /** The checksum method used (it falls back to {@code streamed} for key ranges too wide for SQL arithmetic). */
    SegmentChecksums checksums() {
        return checksums;
    }

    /** Compares both tables, adding every difference to {@code found}. */
    void run(Differences found) throws SQLException {
        SideThreads.Both<long[], long[]> bounds = threads.both(source::bounds, target::bounds);
        SegmentPlanner.KeyRange range = SegmentPlanner.range(bounds.source(), bounds.target());
        if (range == null) {
            return;
        }
        SideThreads.Both<Long, Long> estimates = threads.both(source::estimatedRows, target::estimatedRows);
        long sourceRows = SegmentPlanner.rows(estimates.source(), range);
        long targetRows = SegmentPlanner.rows(estimates.target(), range);
        progress.showBar(request.progress(), "reconcile " + request.sourceTable(), sourceRows);
        Bucketing root = SegmentPlanner.firstPass(range, sourceRows, targetRows, request.segmentRows());
        if (checksums instanceof SqlChecksums && !SqlChecksums.fits(root)) {
            checksums = new SegmentChecksums.Streamed(); // keys spread over more than 2^63: Java arithmetic only
        }
        List<SegmentPlanner.KeyRange> leaves = new ArrayList<>();
        compareSegments(root, true, leaves);
        for (SegmentPlanner.KeyRange r : SegmentPlanner.coalesce(leaves, SegmentPlanner.coalesceSpan(root))) {
            merge.merge(r.lo(), r.hi(), found);
        }
    }

    private void compareSegments(Bucketing b, boolean whole, List<SegmentPlanner.KeyRange> leaves) throws SQLException {
        progress.segments += b.count();
        long base = progress.rows();
        long t0 = System.nanoTime();
        long[] took = new long[2];
        Long lo = whole ? null : b.lo();
        Long hi = whole ? null : b.hi();
        SideThreads.Both<SegmentChecksums.Checksums, SegmentChecksums.Checksums> both = threads.both(() -> {
            SegmentChecksums.Checksums c = checksums.compute(source, b, lo, hi, n -> progress.progress(base + n));
            took[0] = System.nanoTime() - t0;
            return c;
        }, () -> {
            SegmentChecksums.Checksums c = checksums.compute(target, b, lo, hi, n -> { });
            took[1] = System.nanoTime() - t0;
            return c;
        });
        log.debug("{}: {} {} segment checksums of [{}, {}]: source {} ms, target {} ms", request.sourceTable(), b.count(), checksums.method(),
                b.lo(), b.hi(), took[0] / 1_000_000, took[1] / 1_000_000);
        if (whole) {
            progress.sourceRows = both.source().rows();
            progress.targetRows = both.target().rows();
        }
        boolean canBisect = checksums instanceof SqlChecksums;
        for (SegmentPlanner.Step step : SegmentPlanner.mismatches(b, both.source(), both.target(), canBisect, request.segmentRows())) {
            if (step instanceof SegmentPlanner.Step.Bisect bisect) {
                progress.bisected++;
                compareSegments(bisect.parts(), false, leaves);
            } else if (step instanceof SegmentPlanner.Step.Compare compare) {
                leaves.add(compare.range());
            }
        }
    }
}
