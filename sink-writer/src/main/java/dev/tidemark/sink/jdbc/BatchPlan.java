package dev.tidemark.sink.jdbc;

import dev.tidemark.sink.event.ChangeEvent;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a batch of events into the steps that apply it: runs of row changes, collapsed so that each key keeps only
 * its last event (update → delete → insert of one key ends as that insert), separated by truncates, which must run
 * in order with the changes around them. Collapsing means a multi-row statement never touches one row twice.
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

    private BatchPlan() {
    }

    public static List<Step> of(List<ChangeEvent> events) {
        List<Step> steps = new ArrayList<>();
        Map<RowRef, ChangeEvent> run = new LinkedHashMap<>();
        for (ChangeEvent e : events) {
            if (e instanceof ChangeEvent.Truncate t) {
                flush(run, steps);
                steps.add(new Truncation(t));
            } else if (e instanceof ChangeEvent.Delete d) {
                RowRef ref = RowRef.of(d);
                // A tombstone after the delete it follows adds nothing: keep the delete and its position.
                if (!(d.tombstone() && run.get(ref) instanceof ChangeEvent.Delete)) {
                    run.put(ref, d);
                }
            } else {
                run.put(RowRef.of(e), e);
            }
        }
        flush(run, steps);
        return steps;
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
