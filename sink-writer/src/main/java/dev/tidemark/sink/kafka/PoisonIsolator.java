package dev.tidemark.sink.kafka;

import dev.tidemark.jdbc.SinkException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Applies a polled batch so that a poison record stops or is dead-lettered by itself while every record around it is
 * applied, in order: undecodable records are isolated at once, and a part the target rejects a row of
 * ({@link SinkException#isRowRejected()}) is halved until the single culprit remains. Each part that applies commits
 * with its own offsets; any other failure (a fault of the target, transient retries exhausted) stops at once, with
 * nothing of the failed part committed and nothing isolated.
 *
 * <p>The plan is pure ({@link #initial}, {@link #afterRejection}: which index ranges to try next); {@link #apply}
 * drives it against a {@link Target}. Example, records 0–7 with 5 rejected by the target: apply 0–7 fails → apply
 * 0–3 ok, apply 4–7 fails → apply 4–5 fails → apply 4 ok, apply 5 fails → isolate 5 → apply 6–7 ok.
 *
 * <p>Public for the Kafka Connect plugin ({@code connect-sink}), which isolates poison records the same way.
 *
 * @param <T> one record of the batch
 */
public final class PoisonIsolator<T> {

    /** One step of the plan, on indexes of the batch. */
    sealed interface Step permits Apply, Isolate {
    }

    /** Apply records {@code from} (inclusive) to {@code to} (exclusive) as one transaction. */
    record Apply(int from, int to) implements Step {
        Apply {
            if (from < 0 || to <= from) {
                throw new IllegalStateException("empty or negative range " + from + ".." + to);
            }
        }

        int size() {
            return to - from;
        }
    }

    /** Record {@code index} cannot be applied: stop naming it, or dead-letter it. */
    record Isolate(int index) implements Step {
    }

    /** Where the records go. */
    public interface Target<T> {
        /** Applies {@code part} in one transaction, with its offsets; throws {@link SinkException} after rolling back. */
        void apply(List<T> part);

        /** Handles a record that cannot be applied, for {@code reason}: throws to stop, or dead-letters it. */
        void isolate(T record, RuntimeException reason);
    }

    private final Function<T, RuntimeException> undecodable;

    /** {@code undecodable}: why a record could not be decoded, or null when it was. */
    public PoisonIsolator(Function<T, RuntimeException> undecodable) {
        this.undecodable = undecodable;
    }

    /**
     * Pure: the first steps for a batch of {@code size} records: each undecodable record isolated, the runs of records
     * between them applied, in batch order (empty runs are skipped).
     */
    static List<Step> initial(int size, java.util.function.IntPredicate undecodable) {
        List<Step> steps = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < size; i++) {
            if (undecodable.test(i)) {
                if (i > from) {
                    steps.add(new Apply(from, i));
                }
                steps.add(new Isolate(i));
                from = i + 1;
            }
        }
        if (size > from) {
            steps.add(new Apply(from, size));
        }
        return steps;
    }

    /** Pure: after the target rejected a row of {@code failed}: its one record isolated, or its two halves in order. */
    static List<Step> afterRejection(Apply failed) {
        if (failed.size() == 1) {
            return List.of(new Isolate(failed.from()));
        }
        int half = failed.from() + failed.size() / 2;
        return List.of(new Apply(failed.from(), half), new Apply(half, failed.to()));
    }

    /** Applies {@code batch} to {@code target}, isolating poison records as described above. */
    public void apply(List<T> batch, Target<T> target) {
        Map<Integer, RuntimeException> reasons = new HashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            RuntimeException why = undecodable.apply(batch.get(i));
            if (why != null) {
                reasons.put(i, why);
            }
        }
        Deque<Step> work = new ArrayDeque<>(initial(batch.size(), reasons::containsKey));
        while (!work.isEmpty()) {
            Step step = work.removeFirst();
            if (step instanceof Isolate iso) {
                target.isolate(batch.get(iso.index()), reasons.get(iso.index()));
            } else if (step instanceof Apply a) {
                try {
                    target.apply(batch.subList(a.from(), a.to()));
                } catch (SinkException e) {
                    if (!e.isRowRejected()) {
                        throw e;
                    }
                    List<Step> next = afterRejection(a);
                    if (a.size() == 1) {
                        reasons.put(a.from(), e);
                    }
                    for (int i = next.size() - 1; i >= 0; i--) {
                        work.addFirst(next.get(i));
                    }
                }
            }
        }
    }
}
