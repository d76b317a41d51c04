package dev.tidemark.reconcile;

import dev.tidemark.text.ProgressBar;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one reconcile scan has done so far: the work counters reported in {@link ReconcileResult.Stats}, the rows
 * each side had when it was read whole, and the source rows read so far for the progress bar (shown only for long
 * runs, when the request asks for progress).
 *
 * <p>Counters are written by the run's own thread; {@link #progress(long)} may be called from a source reader thread.
 */
final class ScanProgress {
    /** Below this many rows a run is short: no progress bar. */
    static final long PROGRESS_FROM_ROWS = 200_000;

    private final AtomicLong progressRows = new AtomicLong();
    private volatile ProgressBar bar;
    long segments;
    long bisected;
    long fetchedSegments;
    long fetchedRows;
    long sourceRows;
    long targetRows;

    /** Shows a progress bar on {@code out} (null: none) when {@code estimatedRows} makes the run long. */
    void showBar(PrintStream out, String label, long estimatedRows) {
        if (out != null && estimatedRows >= PROGRESS_FROM_ROWS) {
            bar = new ProgressBar(out, label, estimatedRows);
        }
    }

    /** Source rows read so far, the base for the next read's progress. */
    long rows() {
        return progressRows.get();
    }

    /** {@code rows} source rows have been read so far. */
    void progress(long rows) {
        progressRows.set(rows);
        ProgressBar b = bar;
        if (b != null) {
            b.update(rows);
        }
    }

    /** Ends the progress bar, if one is shown. */
    void finish() {
        ProgressBar b = bar;
        if (b != null) {
            b.finish(progressRows.get());
        }
    }

    ReconcileResult.Stats stats(java.time.Duration elapsed) {
        return new ReconcileResult.Stats(segments, bisected, fetchedSegments, fetchedRows, elapsed);
    }
}
