package dev.tidemark.connector.watermark;

import java.time.Duration;
import java.util.List;

/**
 * What one run of one table did.
 *
 * @param kind       the planned kind of run ({@link #mode()} is its label)
 * @param runStatus  how it ended ({@link #status()} is its label)
 * @param window     the window read, described ({@code (lower, upper]}), or {@code (empty table)}
 * @param rows       rows read in the window (upserts and deletes)
 * @param deletes    soft-deleted rows turned into delete events
 * @param lateRows   rows first seen below the previous watermark (caught by the overlap)
 * @param maxLateness how far below the previous watermark the latest of them was ({@code 204d}, {@code 12 ids}); null if none
 * @param movedBackRows rows re-read at a cursor value below the one the target held (the cursor moved backwards);
 *                   this run's read replaced the earlier copy (counted in direct mode, like late rows)
 * @param watermark  the watermark stored after the run (null when none)
 * @param warnings   safety-probe findings and run-history anomalies, each with its fix
 */
public record RunResult(String table, RunKind kind, RunStatus runStatus, String window, long rows, long deletes, long lateRows,
                        String maxLateness, long movedBackRows, long chunks, Duration duration, Watermark watermark,
                        List<String> warnings) {
    public RunResult {
        warnings = List.copyOf(warnings);
    }

    /**
     * {@code initial} (no watermark yet), {@code incremental}, {@code resumed} (finishing a stopped window),
     * {@code window} (a tumbling window given explicitly; no state), {@code unchanged} (nothing above the
     * watermark: no read at all).
     */
    public String mode() {
        return kind.label();
    }

    /** {@code complete} or {@code stopped} (a stop request between chunks; progress is stored). */
    public String status() {
        return runStatus.label();
    }

    public boolean complete() {
        return runStatus == RunStatus.COMPLETE;
    }

    public String summary() {
        return String.format("%s: %s window %s → %s: %,d row%s (%,d deletes) in %d chunk%s, %d ms%s; watermark %s",
                table, mode(), window, status(), rows, rows == 1 ? "" : "s", deletes, chunks, chunks == 1 ? "" : "s", duration.toMillis(),
                (lateRows > 0 ? "; " + lateRows + " late row" + (lateRows == 1 ? "" : "s") + " up to " + maxLateness
                        + " below the previous watermark" : "")
                + (movedBackRows > 0 ? "; " + movedBackRows + " row" + (movedBackRows == 1 ? "" : "s")
                        + " with a cursor moved backwards re-read" : ""),
                watermark == null ? "none" : watermark);
    }
}
