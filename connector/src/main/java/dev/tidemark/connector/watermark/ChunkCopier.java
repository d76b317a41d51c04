package dev.tidemark.connector.watermark;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.jdbc.CursorValue;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.SourceSql;
import dev.tidemark.sink.jdbc.SideWrite;
import dev.tidemark.text.ProgressBar;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies one planned window in chunks paged by key ({@link WindowQuery}), each chunk handed to the {@link Delivery}
 * together with its control write, so a chunk's rows and the progress that records them are committed as one
 * (direct mode: one target transaction). For each chunk, in this order:
 * <ol>
 *   <li>read up to {@code chunkSize} rows after the last key, each row becoming an upsert or (soft-delete flag set) a
 *       delete, positioned at its {@link Watermark} and this run's number;</li>
 *   <li>once the statement is closed, look up the rows inside the overlap for the {@link LatenessTracker};</li>
 *   <li>deliver the events with the control write: a short chunk is the last and stores the plan's target watermark
 *       ({@link ControlTable#complete}); a full one records the window, the last key and the rows so far with the
 *       watermark unchanged ({@link ControlTable#progress}); a tumbling window writes nothing;</li>
 *   <li>ask the stop signal (not after the last chunk): when raised, return with the window unfinished.</li>
 * </ol>
 * A failure leaves the last committed control row, from which the next run resumes. Not thread-safe; the caller owns
 * the source connection (autocommit on) and the delivery.
 */
final class ChunkCopier {
    // a run's lines keep the logger name they always had (the CLI prints it)
    private static final Logger log = LoggerFactory.getLogger(WatermarkPoller.class);

    /** The outcome of copying (part of) a window. */
    record Copied(long rows, long deletes, long lateRows, String maxLateness, long movedBackRows, long chunks, boolean complete) {
        /** Nothing read (an empty table, or nothing above the watermark). */
        static final Copied NOTHING = new Copied(0, 0, 0, null, 0, 0, true);
    }

    /** One chunk as read: its events, its last key (null when empty), its row count and how many are deletes. */
    private record Chunk(List<ChangeEvent> events, List<Object> lastKey, int rows, long deletes) {
    }

    private final Connection source;
    private final SourceSql sql;
    private final ControlTable control;
    private final Delivery delivery;
    private final TargetPositions targetPositions;
    private final PrintStream progressOut;

    /**
     * @param targetPositions lateness lookups in the target (direct mode), or null
     * @param progressOut     where the progress bar of a large first load goes, or null for none
     */
    ChunkCopier(Connection source, SourceSql sql, ControlTable control, Delivery delivery, TargetPositions targetPositions,
                PrintStream progressOut) {
        this.source = source;
        this.sql = sql;
        this.control = control;
        this.delivery = delivery;
        this.targetPositions = targetPositions;
        this.progressOut = progressOut;
    }

    /**
     * Copies {@code plan}'s window from after {@code resume} (null: from the first key).
     *
     * @param run  this run's number ({@link RunHistory#nextRun}), carried by every position read, so that this run's
     *             reads win over an earlier run's copies of the same rows
     * @param stop asked between chunks; true stops after the chunk just committed
     */
    Copied copy(PolledTable table, WindowPlan.Copy plan, List<Object> resume, long run, BooleanSupplier stop) throws Exception {
        WatermarkTable t = table.settings();
        WindowQuery query = new WindowQuery(sql, table.source(), table.keys(), t.cursor(), plan.window());
        LatenessTracker lateness = LatenessTracker.of(plan, targetPositions == null ? null
                : u -> targetPositions.position(u.table().table(), u.key(), table.schema()));
        ProgressBar bar = plan.showsProgress() ? progressBar(query, t, plan.rowsBefore()) : null;
        long rows = plan.rowsBefore();
        long copied = 0;
        long deletes = 0;
        long chunks = 0;
        while (true) {
            Chunk chunk = read(table, query, resume, run, lateness);
            lateness.lookUpChunk();
            int n = chunk.rows();
            boolean last = n < t.chunkSize();
            SideWrite write = plan.tumbling() ? SideWrite.NONE
                    : last ? control.complete(t, plan.target())
                    : control.progress(t, plan.previous(), plan.window(), ResumeKey.encode(chunk.lastKey(), table.schema(), table.keys()), rows + n);
            delivery.deliver(chunk.events(), table.schema(), write);
            rows += n;
            copied += n;
            deletes += chunk.deletes();
            chunks++;
            if (bar != null) {
                bar.update(rows);
            }
            if (last) {
                break;
            }
            resume = chunk.lastKey();
            if (stop.getAsBoolean()) {
                if (bar != null) {
                    bar.finish(rows);
                }
                log.info("{}: stop requested; window {} committed up to key {} ({} rows)", t.name(), plan.window().describe(),
                        chunk.lastKey(), rows);
                return new Copied(copied, deletes, lateness.lateRows(), lateness.maxLateness(), lateness.movedBackRows(), chunks, false);
            }
        }
        if (bar != null) {
            bar.finish(rows);
        }
        return new Copied(copied, deletes, lateness.lateRows(), lateness.maxLateness(), lateness.movedBackRows(), chunks, true);
    }

    /** A bar over the window's rows (plus those already committed) when there is more than one chunk of them. */
    private ProgressBar progressBar(WindowQuery query, WatermarkTable t, long rowsBefore) throws SQLException {
        if (progressOut == null) {
            return null;
        }
        long total;
        try (PreparedStatement ps = query.prepareCount(source); ResultSet rs = ps.executeQuery()) {
            rs.next();
            total = rs.getLong(1);
        }
        return total > t.chunkSize() ? new ProgressBar(progressOut, t.name(), total + rowsBefore) : null;
    }

    private Chunk read(PolledTable table, WindowQuery query, List<Object> resume, long run, LatenessTracker lateness)
            throws SQLException {
        WatermarkTable t = table.settings();
        List<SourceColumn> columns = table.source().columns();
        int primaryIndex = columns.stream().map(SourceColumn::name).toList().indexOf(table.primary().name()) + 1;
        String tieColumn = table.tieBreakColumn();
        List<ChangeEvent> events = new ArrayList<>();
        List<Object> lastKey = null;
        int n = 0;
        long deletes = 0;
        try (PreparedStatement ps = query.prepareChunk(source, resume, t.chunkSize()); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                n++;
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 0; i < columns.size(); i++) {
                    SourceColumn c = columns.get(i);
                    try {
                        row.put(c.name(), sql.read(rs, i + 1, c));
                    } catch (RuntimeException | SQLException e) {
                        throw new IllegalStateException("table " + t.table() + " column " + c.name() + " (" + c.declaredType()
                                + ") after key " + lastKey + ": cannot read value: " + e.getMessage(), e);
                    }
                }
                Map<String, Object> key = new LinkedHashMap<>();
                for (String k : table.keys()) {
                    Object v = row.get(k);
                    if (v == null) {
                        throw new IllegalStateException("table " + t.table() + ": key column " + k + " is NULL in a row with cursor "
                                + rs.getString(primaryIndex) + "; rows need a non-null key to be upserted");
                    }
                    key.put(k, v);
                }
                CursorValue value = sql.readCursorValue(rs, primaryIndex, table.primary().kind());
                Watermark at = new Watermark(value, tieColumn == null ? null : (Long) row.get(tieColumn));
                SourcePosition position = new SourcePosition.Watermark(at.render(), run);
                if (t.softDeleteColumn() != null && softDeleted(row.get(t.softDeleteColumn()))) {
                    events.add(new ChangeEvent.Delete(t.table(), key, position, false));
                    deletes++;
                } else {
                    ChangeEvent.Upsert u = new ChangeEvent.Upsert(t.table(), key, table.schema(), row, position, ChangeEvent.Op.READ);
                    events.add(u);
                    lateness.observe(u, at);
                }
                lastKey = new ArrayList<>(key.values());
            }
        }
        return new Chunk(events, lastKey, n, deletes);
    }

    /** Whether a soft-delete flag value means deleted: true, non-zero, or the text true/t/y/yes/1 (any case). */
    static boolean softDeleted(Object v) {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n) {
            return n.doubleValue() != 0;
        }
        String s = v.toString().trim();
        return s.equalsIgnoreCase("true") || s.equalsIgnoreCase("t") || s.equalsIgnoreCase("y") || s.equalsIgnoreCase("yes") || s.equals("1");
    }
}
