package dev.tidemark.connector.watermark;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.jdbc.CursorValue;
import dev.tidemark.jdbc.Durations;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Observed lateness of one window: rows read at or below the previous watermark (inside the overlap) that the
 * target has never seen at their position were committed at the source after the run that moved the watermark past
 * them. Counts them and keeps how far below the previous watermark the latest of them was (a duration for timestamp
 * cursors, a count of ids for id cursors); the run history records both, and {@link #warning} says what overlap
 * would catch them.
 *
 * <p>It also counts rows whose cursor <em>moved backwards</em>: re-read at a cursor value below the one the target
 * holds for them (a writer with a slow clock, the DST fall-back hour on a {@code timestamp without time zone}). The
 * read carries its run ({@link SourcePosition.Watermark#run()}), so the sink applies it over the earlier run's copy;
 * {@link #movedBackWarning} reports them. Stored and read positions are compared by cursor value only (the run
 * would make every re-read look newer).
 *
 * <p>Only incremental windows with a previous watermark are tracked, and only when the target's positions can be
 * read (direct mode); otherwise the tracker is {@link #off()}. Rows are collected while a chunk is read
 * ({@link #observe}) and looked up once the chunk's statement is closed ({@link #lookUpChunk}), before the chunk is
 * delivered. Not thread-safe: one tracker per window.
 */
final class LatenessTracker {

    /** The position the target stored for a row, empty when the row is not there. */
    @FunctionalInterface
    interface StoredPositions {
        Optional<SourcePosition> position(ChangeEvent.Upsert row) throws SQLException;
    }

    private final Watermark previous;
    private final StoredPositions stored;
    private final List<ChangeEvent.Upsert> candidates = new ArrayList<>();
    private final List<Watermark> candidatePositions = new ArrayList<>();
    private long lateRows;
    private Duration maxLate;
    private long maxLateIds = -1;
    private long movedBackRows;

    private LatenessTracker(Watermark previous, StoredPositions stored) {
        this.previous = previous;
        this.stored = stored;
    }

    /** A tracker that observes nothing. */
    static LatenessTracker off() {
        return new LatenessTracker(null, null);
    }

    /** A tracker for {@code plan}: off for tumbling windows, first loads, and without {@code stored} (null). */
    static LatenessTracker of(WindowPlan.Copy plan, StoredPositions stored) {
        return plan.previous() == null || plan.tumbling() || stored == null ? off() : new LatenessTracker(plan.previous(), stored);
    }

    /** Notes an upserted row read at {@code position}: a candidate when at or below the previous watermark. */
    void observe(ChangeEvent.Upsert row, Watermark position) {
        if (previous != null && position.compareTo(previous) <= 0) {
            candidates.add(row);
            candidatePositions.add(position);
        }
    }

    /** Looks up the target position of every candidate of the chunk just read, counts the late ones, and forgets them. */
    void lookUpChunk() throws SQLException {
        for (int i = 0; i < candidates.size(); i++) {
            ChangeEvent.Upsert u = candidates.get(i);
            Optional<SourcePosition> at = stored.position(u);
            int c = at.isEmpty() ? -1 : compareValues(at.get(), u.position());
            if (c < 0) {
                late(candidatePositions.get(i));
            } else if (c > 0 && rootIsWatermark(at.get())) {
                movedBackRows++;
            }
        }
        candidates.clear();
        candidatePositions.clear();
    }

    /**
     * How the target's {@code stored} position compares with a {@code read} one by cursor value alone (runs ignored;
     * repair marks ignored): negative when the target holds an older value or nothing known, 0 when the same value,
     * positive when the target holds a higher value (the cursor moved backwards) or a captured (WAL) position.
     */
    static int compareValues(SourcePosition stored, SourcePosition read) {
        SourcePosition root = root(stored);
        if (root instanceof SourcePosition.Watermark s && read instanceof SourcePosition.Watermark r) {
            return s.valueOnly().compareTo(r.valueOnly());
        }
        return stored.compareTo(read);
    }

    private static boolean rootIsWatermark(SourcePosition p) {
        return root(p) instanceof SourcePosition.Watermark;
    }

    private static SourcePosition root(SourcePosition p) {
        SourcePosition q = p;
        while (q instanceof SourcePosition.After a) {
            q = a.base();
        }
        return q;
    }

    private void late(Watermark position) {
        lateRows++;
        Optional<Duration> d = previous.primary().durationAbove(position.primary());
        if (d.isPresent()) {
            maxLate = maxLate == null || d.get().compareTo(maxLate) > 0 ? d.get() : maxLate;
        } else if (previous.primary() instanceof CursorValue.Number p) {
            maxLateIds = Math.max(maxLateIds, p.value() - ((CursorValue.Number) position.primary()).value());
        }
    }

    long lateRows() {
        return lateRows;
    }

    /** Rows re-read at a cursor value below the one the target held (the cursor moved backwards). */
    long movedBackRows() {
        return movedBackRows;
    }

    /** How late the latest late row was: {@code 204d}, {@code 12 ids}; null when none was late (or no amount is known). */
    String maxLateness() {
        if (maxLate != null) {
            return Durations.format(maxLate);
        }
        return maxLateIds >= 0 ? maxLateIds + " ids" : null;
    }

    /** The run's warning about late rows, with the overlap that would catch them; empty when none was late. */
    static Optional<String> warning(WatermarkTable t, long lateRows, String maxLateness) {
        if (lateRows == 0) {
            return Optional.empty();
        }
        String current = t.cursor() instanceof Cursor.Id ? t.idOverlap() + " ids" : Durations.format(t.overlap());
        return Optional.of("table " + t.table() + ": observed lateness: " + lateRows + " row" + (lateRows == 1 ? " was" : "s were")
                + " first seen below the previous watermark (inside the overlap), up to " + maxLateness
                + " late; an overlap of at least " + maxLateness + " catches rows that late (current overlap " + current
                + "); rows later than the overlap are never seen: run reconcile to find them");
    }

    /** The run's report of rows whose cursor moved backwards; empty when there were none. */
    static Optional<String> movedBackWarning(WatermarkTable t, long movedBackRows) {
        if (movedBackRows == 0) {
            return Optional.empty();
        }
        return Optional.of("table " + t.table() + ": " + movedBackRows + " row" + (movedBackRows == 1 ? "'s" : "s'")
                + " cursor moved backwards (re-read below the value the target held: clock skew between writers, or a DST"
                + " fall-back on a timestamp without time zone); this run's read replaced the earlier copy. A cursor that"
                + " moves back below the watermark minus the overlap is never re-read: run reconcile to find such rows");
    }
}
