package dev.tidemark.sink.jdbc;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.SourcePosition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a batch of events into the steps that apply it: runs of row changes, collapsed so that each key keeps only
 * its newest event (update → delete → insert of one key ends as that insert), separated by truncates, which must run
 * in order with the changes around them. Collapsing means a multi-row statement never touches one row twice.
 *
 * <p>Two kinds of events never reach the target:
 * <ul>
 *   <li>tombstones (a key with a null value): they carry no position, so they could not be guarded; the {@code d}
 *       event before each one carries the delete, guarded by its position, in hard and soft delete mode alike;</li>
 *   <li>row changes older than the newest truncate of their table ({@code truncatedAt}, by target table, plus the
 *       truncates earlier in this batch): a truncate travels on one partition, so a change made before it can arrive
 *       after it and would otherwise bring a truncated row back.</li>
 * </ul>
 * Pure: no I/O.
 */
public final class BatchPlan {

    /** One step of a plan. */
    public sealed interface Step {
    }

    /** Row changes, at most one per (table, key), in first-seen order of their keys. */
    public record Changes(List<ChangeEvent> events) implements Step {
    }

    /** A truncate of one table. */
    public record Truncation(ChangeEvent.Truncate event) implements Step {
    }

    /**
     * What the target remembers per table (by target table name).
     *
     * @param truncatedAt position of the newest truncate applied
     * @param snapshotAt  LSN of the newest snapshot whose rows were applied
     */
    public record TableMarks(Map<String, SourcePosition> truncatedAt, Map<String, Long> snapshotAt) {
        public static final TableMarks NONE = new TableMarks(Map.of(), Map.of());

        public TableMarks {
            truncatedAt = Map.copyOf(truncatedAt);
            snapshotAt = Map.copyOf(snapshotAt);
        }
    }

    private BatchPlan() {
    }

    /** The plan of a batch for a target that remembers no truncate and no snapshot. */
    public static List<Step> of(List<ChangeEvent> events) {
        return of(events, TableMarks.NONE);
    }

    /**
     * The plan of a batch. Changes of the first transaction after a snapshot ({@link SourcePosition.Phase#FIRST}) are
     * ordered after the newest snapshot of their table: the one remembered in {@code marks}, or a newer one whose rows
     * come earlier in this batch.
     */
    public static List<Step> of(List<ChangeEvent> events, TableMarks marks) {
        return of(events, marks, TargetTableNames.DEFAULT);
    }

    /** The plan of a batch whose source tables are written to the target tables {@code names} gives them. */
    public static List<Step> of(List<ChangeEvent> events, TableMarks marks, TargetTableNames names) {
        Map<String, SourcePosition> truncates = new HashMap<>(marks.truncatedAt());
        Map<String, Long> snapshots = new HashMap<>(marks.snapshotAt());
        List<Step> steps = new ArrayList<>();
        Map<RowRef, ChangeEvent> run = new LinkedHashMap<>();
        for (ChangeEvent event : events) {
            ChangeEvent e = ordered(event, names.of(event.table()), snapshots);
            if (e instanceof ChangeEvent.Truncate t) {
                flush(run, steps);
                steps.add(new Truncation(t));
                truncates.merge(names.of(t.table()), t.position(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
            } else if (e instanceof ChangeEvent.Delete d && d.tombstone()) {
                continue;
            } else if (!olderThanTruncate(e, truncates.get(names.of(e.table())))) {
                run.merge(RowRef.of(e), e, BatchPlan::newer);
            }
        }
        flush(run, steps);
        return steps;
    }

    /** The event with a first-transaction position raised to its table's newest snapshot; notes snapshot rows. */
    private static ChangeEvent ordered(ChangeEvent e, String table, Map<String, Long> snapshots) {
        if (!(e.position() instanceof SourcePosition.Wal w)) {
            return e;
        }
        switch (w.phase()) {
            case SNAPSHOT -> {
                snapshots.merge(table, w.order(), (a, b) -> Long.compareUnsigned(a, b) >= 0 ? a : b);
                return e;
            }
            case FIRST -> {
                Long snapshot = snapshots.get(table);
                return snapshot == null ? e : e.withPosition(w.atLeast(snapshot));
            }
            case STREAM -> {
                return e;
            }
        }
        throw new IllegalStateException("unreachable");
    }

    private static boolean olderThanTruncate(ChangeEvent e, SourcePosition truncate) {
        return truncate != null && known(truncate) && known(e.position()) && e.position().compareTo(truncate) < 0;
    }

    /** The later of two events of one key: by position where both have one, else by batch order. */
    private static ChangeEvent newer(ChangeEvent earlier, ChangeEvent later) {
        return known(earlier.position()) && known(later.position()) && earlier.position().compareTo(later.position()) > 0
                ? earlier : later;
    }

    /** Unknown positions are not ordered against others: the SQL guards treat them (NULL) as "no guard". */
    private static boolean known(SourcePosition p) {
        return !(p instanceof SourcePosition.Unknown);
    }

    private static void flush(Map<RowRef, ChangeEvent> run, List<Step> steps) {
        if (!run.isEmpty()) {
            steps.add(new Changes(List.copyOf(run.values())));
            run.clear();
        }
    }

    /** Identity of a row: table plus key values (byte arrays compared by content). */
    private record RowRef(Object table, List<Object> key) {
        static RowRef of(ChangeEvent e) {
            List<Object> values = new ArrayList<>(e.key().size());
            for (Object v : e.key().values()) {
                values.add(v instanceof byte[] b ? ByteBuffer.wrap(b) : v);
            }
            return new RowRef(e.table(), values);
        }
    }
}
