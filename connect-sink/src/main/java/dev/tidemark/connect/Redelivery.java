package dev.tidemark.connect;

import dev.tidemark.jdbc.RetryPolicy;
import java.util.function.DoubleSupplier;

/**
 * What the task answers after a transient target failure in {@code put}: the worker owns the wait and the redelivery
 * (Connect's pattern: {@code context.timeout(wait)}, then {@code RetriableException}, and the worker hands the same
 * records to {@code put} again once the wait is over). Consecutive failures are bounded by the policy's attempts; a
 * {@code put} that applies resets the count.
 *
 * <p>The wait is the policy's backoff with equal jitter: between half of it and all of it, so tasks that failed
 * together do not come back together. Example with {@link RetryPolicy#DEFAULT} (8 attempts, 200 ms doubling to at
 * most 10 s): failure 1 → wait 100–200 ms; failure 2 → 200–400 ms; …; failure 8 → {@link GiveUp}.
 *
 * <p>Pure apart from its random source; not thread-safe (one per task, used by the task's thread).
 */
final class Redelivery {
    /** The answer to one failure. */
    sealed interface Next permits Backoff, GiveUp {
    }

    /** Ask the worker to wait {@code waitMs}, then deliver the records again for attempt {@code attempt}. */
    record Backoff(int attempt, long waitMs) implements Next {
    }

    /** The attempts ran out: the task stops with {@code line}. */
    record GiveUp(String line) implements Next {
    }

    private final RetryPolicy policy;
    private final DoubleSupplier random;
    private int failures;

    /** {@code random} gives values in [0, 1). */
    Redelivery(RetryPolicy policy, DoubleSupplier random) {
        this.policy = policy;
        this.random = random;
    }

    /** After a transient failure saying {@code failure}. */
    Next failed(String failure) {
        failures++;
        if (failures >= policy.attempts()) {
            return new GiveUp(failure + " (gave up after " + failures + " attempts; offsets not advanced: make the target"
                    + " reachable, then restart the task: POST /connectors/<name>/tasks/<id>/restart)");
        }
        long full = policy.backoff(failures + 1).toMillis();
        long half = full / 2;
        long wait = half + (long) (random.getAsDouble() * (full - half));
        return new Backoff(failures + 1, Math.max(1, Math.min(full, wait)));
    }

    /** A {@code put} applied: the next failure counts from 1 again. */
    void succeeded() {
        failures = 0;
    }
}
