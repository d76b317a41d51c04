package dev.tidemark.connector.watermark;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes one run: adds the lateness warning ({@link LatenessTracker#warning}), the report of rows whose cursor moved
 * backwards ({@link LatenessTracker#movedBackWarning}) and, for incremental runs, the
 * anomaly found by comparing the rows copied with the recent runs ({@link RunHistory#anomaly}); records the run in
 * the {@link RunHistory} (which commits it); logs the summary; and returns the {@link RunResult}. Not thread-safe.
 */
final class RunRecorder {
    // a run's lines keep the logger name they always had (the CLI prints it)
    private static final Logger log = LoggerFactory.getLogger(WatermarkPoller.class);

    private final RunHistory history;
    private final Delivery delivery;

    RunRecorder(RunHistory history, Delivery delivery) {
        this.history = history;
        this.delivery = delivery;
    }

    /**
     * @param w          the window read or planned; null for an empty table's first run
     * @param watermark  the watermark stored after the run, null when none
     * @param warnings   the warnings so far (safety probes); this run's are appended
     * @param startedAt  when the run started, as the history's text
     * @param startNanos {@link System#nanoTime()} at the start
     */
    RunResult finish(WatermarkTable t, RunKind kind, Window w, ChunkCopier.Copied copy, Watermark watermark,
                     List<String> warnings, String startedAt, long startNanos) throws SQLException {
        Duration took = Duration.ofNanos(System.nanoTime() - startNanos);
        // warnings travel in the result, whose caller prints them once; the log keeps them at DEBUG
        LatenessTracker.warning(t, copy.lateRows(), copy.maxLateness()).ifPresent(msg -> {
            log.debug(msg);
            warnings.add(msg);
        });
        LatenessTracker.movedBackWarning(t, copy.movedBackRows()).ifPresent(msg -> {
            log.debug(msg);
            warnings.add(msg);
        });
        RunStatus status = copy.complete() ? RunStatus.COMPLETE : RunStatus.STOPPED;
        if (kind.comparedWithHistory()) {
            List<Long> recent = history.recentIncrementalRows(t.name());
            RunHistory.anomaly(t.name(), copy.rows(), recent).ifPresent(a -> {
                log.debug(a);
                warnings.add(a);
            });
        }
        String window = w == null ? "(empty table)" : w.describe();
        history.record(new RunHistory.Run(t.name(), startedAt, kind.historyLabel(), status.label(),
                w == null || w.lower() == null ? null : w.lower().toString(), w == null ? null : w.upper().toString(),
                copy.rows(), copy.deletes(), copy.lateRows(), copy.maxLateness(), copy.movedBackRows(), copy.chunks(),
                took.toMillis(), warnings.isEmpty() ? null : String.join("\n", warnings)));
        RunResult r = new RunResult(t.name(), kind, status, window, copy.rows(), copy.deletes(), copy.lateRows(),
                copy.maxLateness(), copy.movedBackRows(), copy.chunks(), took, watermark, warnings);
        log.info("watermark {} via {}", r.summary(), delivery.describe());
        return r;
    }
}
