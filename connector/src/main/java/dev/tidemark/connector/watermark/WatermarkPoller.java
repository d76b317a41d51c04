package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.CursorValue;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.SourceSql;

import java.io.PrintStream;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watermark run of one table, the recipe step by step:
 * <ol>
 *   <li>read the stored watermark from the control table (a window left unfinished by a stop is resumed as it was);</li>
 *   <li>read the new upper bound <em>first</em>: {@code MAX(cursor)} (and the largest tie-break id at it), lowered to
 *       the database clock minus the settle delay; rows committed from now on lie above it and wait for the next run;</li>
 *   <li>copy the rows with {@code watermark − overlap < cursor <= upper} in chunks paged by key, each chunk delivered
 *       together with a control write recording progress (direct mode: in the same target transaction);</li>
 *   <li>the last chunk's control write stores the upper bound as the new watermark. A failure before leaves the old
 *       watermark (or the last progress), and the next run retries the rest of the window.</li>
 * </ol>
 * Then the run is recorded in the run history and compared with recent runs. This class only sequences the parts:
 * {@link PolledTable} checks the table, {@link SourceBounds} reads the bounds, {@link WindowPlanner} decides the
 * window, {@link SafetyProbes} warn, {@link ChunkCopier} copies (with its {@link LatenessTracker}) and
 * {@link RunRecorder} records. Not thread-safe: one poller per thread; the caller owns the connections and the
 * delivery.
 */
public final class WatermarkPoller {
    private static final Logger log = LoggerFactory.getLogger(WatermarkPoller.class);

    private final Connection source;
    private final SourceSql sql;
    private final ControlTable control;
    private final SourceBounds bounds;
    private final ChunkCopier copier;
    private final RunRecorder recorder;
    private final RunHistory history;

    /**
     * @param source          the source connection (autocommit on: every chunk reads the latest committed rows)
     * @param targetPositions lateness lookups in the target (direct mode), or null
     * @param progressOut     where the first load's progress bar goes, or null for none
     */
    public WatermarkPoller(Connection source, String sourceUrl, ControlTable control, RunHistory history, Delivery delivery,
                           TargetPositions targetPositions, PrintStream progressOut) {
        this.source = source;
        this.sql = Databases.forUrl(sourceUrl);
        this.control = control;
        this.bounds = new SourceBounds(source, sql);
        this.copier = new ChunkCopier(source, sql, control, delivery, targetPositions, progressOut);
        this.recorder = new RunRecorder(history, delivery);
        this.history = history;
    }

    /**
     * What to run.
     *
     * @param windowStart tumbling window start (inclusive) as text in the cursor's type, or null
     * @param windowEnd   tumbling window end (exclusive), or null
     * @param probes      run the safety probes even when a watermark exists
     * @param stop        asked between chunks; true stops after the chunk just committed
     */
    public record Request(String windowStart, String windowEnd, boolean probes, BooleanSupplier stop) {
        public static Request incremental() {
            return new Request(null, null, false, () -> false);
        }

        public static Request window(String start, String end) {
            return new Request(start, end, false, () -> false);
        }

        public Request stoppingWhen(BooleanSupplier s) {
            return new Request(windowStart, windowEnd, probes, s);
        }

        public Request withProbes() {
            return new Request(windowStart, windowEnd, true, stop);
        }

        /** Whether a tumbling window was asked for (either bound given). */
        boolean tumbling() {
            return windowStart != null || windowEnd != null;
        }
    }

    /** Runs {@code t} once as {@code request} says; returns what the run did (also recorded in the run history). */
    public RunResult run(WatermarkTable t, Request request) throws Exception {
        long t0 = System.nanoTime();
        String startedAt = RunHistory.now();
        PolledTable table = PolledTable.describe(source, sql, t);
        List<String> warnings = new ArrayList<>();

        if (request.tumbling()) {
            CursorValue sample = request.windowStart() == null || request.windowEnd() == null ? null : bounds.max(table);
            WindowPlan.Copy plan = WindowPlanner.tumbling(request.windowStart(), request.windowEnd(), table.primary(), sample,
                    sql.temporalsAsText());
            return copy(table, plan, null, request, warnings, startedAt, t0);
        }

        Optional<ControlTable.State> state = control.read(t.name());
        WindowPlanner.requireSameCursor(t, state);
        Optional<WindowPlan.Copy> unfinished = WindowPlanner.resumption(state);
        if (unfinished.isPresent()) {
            WindowPlan.Copy plan = unfinished.get();
            List<Object> resume = ResumeKey.decode(plan.resumeKey(), table.schema());
            log.info("{}: resuming window {} after key {} ({} rows already committed)", t.name(), plan.window().describe(),
                    resume, plan.rowsBefore());
            return copy(table, plan, resume, request, warnings, startedAt, t0);
        }

        Watermark stored = state.map(ControlTable.State::watermark).orElse(null);
        CursorValue max = bounds.max(table);
        if (stored == null || request.probes()) {
            for (SafetyProbes.Warning w : new SafetyProbes(source, sql, table.source(), t).run(control, max)) {
                log.debug("{}", w.format()); // the caller prints the warnings of the result, once
                warnings.add(w.format());
            }
        }
        WindowPlan plan = WindowPlanner.next(t, stored, bounds.upper(table, max));
        if (plan instanceof WindowPlan.Copy c) {
            return copy(table, c, null, request, warnings, startedAt, t0);
        }
        WindowPlan.Skip skip = (WindowPlan.Skip) plan;
        return recorder.finish(t, skip.kind(), skip.window(), ChunkCopier.Copied.NOTHING, skip.watermark(), warnings, startedAt, t0);
    }

    private RunResult copy(PolledTable table, WindowPlan.Copy plan, List<Object> resume, Request request, List<String> warnings,
                           String startedAt, long t0) throws Exception {
        ChunkCopier.Copied copied = copier.copy(table, plan, resume, history.nextRun(table.settings().name()), request.stop());
        return recorder.finish(table.settings(), plan.kind(), plan.window(), copied, plan.watermarkAfter(copied.complete()),
                warnings, startedAt, t0);
    }
}
