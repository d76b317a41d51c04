package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.UsageException;

import dev.tidemark.jdbc.ColumnKind;
import dev.tidemark.jdbc.CursorValue;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.TextTime;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.Temporal;
import java.util.Optional;

/**
 * Decides the window of one run from what is stored and what the source shows, without any I/O. The caller reads
 * in this order and asks at each step:
 * <ol>
 *   <li>the control table's row: {@link #requireSameCursor} rejects a row written for another cursor, and
 *       {@link #resumption} returns the unfinished window a stop left, to be finished first ({@link RunKind#RESUMED});</li>
 *   <li>otherwise the source's {@code MAX(cursor)}, the largest tie-break id at it and, when {@link #settles} says so,
 *       the database clock minus the settle delay: {@link #upperBound} makes the upper bound of them;</li>
 *   <li>{@link #next} plans the run from the stored watermark and that bound: an empty first run, an unchanged
 *       run (nothing above the watermark and no overlap to re-read), a first load or an incremental window
 *       {@code (watermark − overlap, upper]}.</li>
 * </ol>
 * A tumbling window given explicitly is planned by {@link #tumbling} and touches no stored state. Stateless; all
 * methods are static and thread-safe.
 */
final class WindowPlanner {

    private WindowPlanner() {
    }

    /** Throws when the stored row was written for another cursor (kind or columns) than the settings give. */
    static void requireSameCursor(WatermarkTable t, Optional<ControlTable.State> state) {
        String columns = String.join(",", t.cursor().columns());
        if (state.isPresent() && (!state.get().cursorKind().equals(t.cursor().kind())
                || !state.get().cursorColumns().equals(columns))) {
            throw new UsageException("table " + t.table() + ": " + ControlTable.NAME + " holds a " + state.get().cursorKind()
                    + " watermark on " + state.get().cursorColumns() + " but the settings say " + t.cursor().kind() + " on "
                    + columns + "; delete its row from " + ControlTable.NAME + " to start over");
        }
    }

    /**
     * The unfinished window of a stopped run, finished as it was (same bounds, after the last committed key), whose
     * completion stores its upper bound; empty when no window is in progress.
     */
    static Optional<WindowPlan.Copy> resumption(Optional<ControlTable.State> state) {
        Watermark stored = state.map(ControlTable.State::watermark).orElse(null);
        return state.map(ControlTable.State::inProgress).map(unfinished -> new WindowPlan.Copy(RunKind.RESUMED,
                unfinished.window(), stored, unfinished.window().upper(), unfinished.resumeKey(), unfinished.rows()));
    }

    /** Whether the upper bound is cut by the settle delay, so the database clock must be read: timestamp cursors with a delay. */
    static boolean settles(WatermarkTable t) {
        return !(t.cursor() instanceof Cursor.Id) && !t.settle().isZero();
    }

    /**
     * The window's upper bound: {@code MAX(cursor)} with, for a timestamp+id cursor, the largest id at it; but no
     * closer to now than the settle delay: when {@code settledClock} (the clock minus the delay, read only when
     * {@link #settles}) lies below the maximum, the bound is that instant, covering every id.
     *
     * @param max          {@code MAX(cursor)}; null for an empty table (the result is then null)
     * @param maxIdAtMax   the largest tie-break id at {@code max}; null for other cursors or when there is none
     * @param settledClock the database clock minus the settle delay, in {@code max}'s kind; null when not read
     */
    static Watermark upperBound(CursorValue max, Long maxIdAtMax, CursorValue settledClock) {
        if (max == null) {
            return null;
        }
        if (settledClock != null && settledClock.compareTo(max) < 0) {
            return Watermark.of(settledClock);
        }
        return new Watermark(max, maxIdAtMax);
    }

    /**
     * The run after the stored watermark (null: none yet) up to {@code upper} (null: the source table is empty).
     * The bound never goes below the stored watermark (a source whose maximum went down, or a settle delay reaching
     * further back than the last run, re-reads nothing instead of moving the watermark back).
     */
    static WindowPlan next(WatermarkTable t, Watermark stored, Watermark upper) {
        if (upper == null && stored == null) {
            return new WindowPlan.Skip(RunKind.INITIAL, null, null);
        }
        if (stored != null && (upper == null || upper.compareTo(stored) < 0)) {
            upper = stored;
        }
        if (stored == null) {
            return new WindowPlan.Copy(RunKind.INITIAL, Window.incremental(null, upper), null, upper, null, 0);
        }
        Watermark lower = lowered(t, stored);
        Window w = Window.incremental(lower, upper);
        if (lower.equals(stored) && upper.compareTo(stored) <= 0) {
            // nothing above the watermark and no overlap to re-read: two index lookups, no window read
            return new WindowPlan.Skip(RunKind.UNCHANGED, w, stored);
        }
        return new WindowPlan.Copy(RunKind.INCREMENTAL, w, stored, upper, null, 0);
    }

    /**
     * The stored watermark moved down by the overlap (a duration for timestamp cursors, a count of ids for id
     * cursors), without tie-break: the rows at and above it are re-read.
     */
    static Watermark lowered(WatermarkTable t, Watermark watermark) {
        if (t.cursor() instanceof Cursor.Id) {
            return t.idOverlap() == 0 ? watermark : Watermark.of(((CursorValue.Number) watermark.primary()).minus(t.idOverlap()));
        }
        return t.overlap().isZero() ? watermark : Watermark.of(watermark.primary().minus(t.overlap()));
    }

    /**
     * A tumbling window {@code [start, end)} given as text.
     *
     * @param primary   the cursor's primary column (its kind decides how the text is read)
     * @param sample    a value of that column ({@code MAX}), whose text shape SQLite bounds copy; null if none
     * @param textTimes whether the source keeps date-times as text (SQLite): bounds are then text in the column's shape
     */
    static WindowPlan.Copy tumbling(String start, String end, SourceColumn primary, CursorValue sample, boolean textTimes) {
        if (start == null || end == null) {
            throw new UsageException("a tumbling window needs both --window-start and --window-end");
        }
        Window w = Window.tumbling(Watermark.of(parseBound(start, primary, sample, textTimes)),
                Watermark.of(parseBound(end, primary, sample, textTimes)));
        if (w.lower().compareTo(w.upper()) >= 0) {
            throw new UsageException("window start " + start + " is not before window end " + end);
        }
        return new WindowPlan.Copy(RunKind.WINDOW, w, null, null, null, 0);
    }

    /** A window bound given as text, as a value of the cursor column's kind (SQLite: text in the column's shape). */
    static CursorValue parseBound(String text, SourceColumn column, CursorValue sample, boolean textTimes) {
        if (column.kind() == ColumnKind.INTEGER) {
            try {
                return new CursorValue.Number(Long.parseLong(text.trim()));
            } catch (NumberFormatException e) {
                throw new UsageException("window bound '" + text + "' is not an id (cursor " + column.name() + " is an integer)");
            }
        }
        TextTime parsed = TextTime.parse(text).orElseThrow(() -> new UsageException("window bound '" + text
                + "' is not a date or date-time (e.g. 2013-01-01, 2013-01-01T12:00:00, 2013-01-01T12:00:00Z)"));
        Temporal v = parsed.value();
        if (textTimes) {
            return sample instanceof CursorValue.Text s && TextTime.parse(s.raw()).isPresent()
                    ? new CursorValue.Text(TextTime.format(v, TextTime.parse(s.raw()).get().shape())) : new CursorValue.Text(text);
        }
        return switch (column.kind()) {
            case ZONED -> new CursorValue.Zoned(v instanceof Instant i ? i : v instanceof LocalDateTime l ? l.toInstant(ZoneOffset.UTC)
                    : ((LocalDate) v).atStartOfDay().toInstant(ZoneOffset.UTC));
            case LOCAL -> new CursorValue.Local(v instanceof LocalDateTime l ? l : v instanceof LocalDate d ? d.atStartOfDay()
                    : LocalDateTime.ofInstant((Instant) v, ZoneOffset.UTC));
            case DATE -> new CursorValue.Day(v instanceof LocalDate d ? d : v instanceof LocalDateTime l ? l.toLocalDate()
                    : LocalDateTime.ofInstant((Instant) v, ZoneOffset.UTC).toLocalDate());
            default -> throw new UsageException("cursor " + column.name() + " cannot bound a window");
        };
    }
}
