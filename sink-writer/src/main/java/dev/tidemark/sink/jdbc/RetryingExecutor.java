package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.RetryPolicy;
import dev.tidemark.jdbc.SinkException;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one unit of the sink's work (a batch, a read of the offsets) and retries it as {@link RetryDecision} decides:
 * the work itself rolls back before it throws a {@link SinkException}; this class waits out the backoff, asks
 * {@link Recovery} to replace a lost connection, and tries again, or stops with the failure.
 *
 * <p>Not thread-safe: owned by one {@link JdbcChangeSink}, used by the thread that applies.
 */
final class RetryingExecutor {
    private static final Logger log = LoggerFactory.getLogger(RetryingExecutor.class);

    /** Called after the wait and before the next attempt: reconnects when the connection is gone. */
    @FunctionalInterface
    interface Recovery {
        void beforeRetry();
    }

    /** Waits between attempts ({@link Thread#sleep} in production). */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration wait) throws InterruptedException;
    }

    private final String target;
    private final Recovery recovery;
    private final Sleeper sleeper;
    private RetryPolicy policy = RetryPolicy.DEFAULT;
    private long retries;

    /** {@code target} names the target in log lines (the dialect's name). */
    RetryingExecutor(String target, Recovery recovery, Sleeper sleeper) {
        this.target = target;
        this.recovery = recovery;
        this.sleeper = sleeper;
    }

    RetryingExecutor(String target, Recovery recovery) {
        this(target, recovery, wait -> Thread.sleep(wait.toMillis()));
    }

    void policy(RetryPolicy policy) {
        this.policy = policy;
    }

    /** How many times a transient failure was retried so far. */
    long retries() {
        return retries;
    }

    /**
     * Runs {@code work} until it succeeds or {@link RetryDecision} says stop.
     *
     * @throws SinkException the work's failure as it is when not transient or when the policy allows one attempt only
     *                       (the caller retries); when transient and out of attempts, with
     *                       {@link RetryDecision.GiveUp#message} and the same cause and failure
     */
    <T> T run(Supplier<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return work.get();
            } catch (SinkException e) {
                RetryDecision decision = RetryDecision.after(policy, attempt, e.failure());
                if (decision instanceof RetryDecision.GiveUp g) {
                    if (policy.attempts() == 1) {
                        throw e; // no retries asked for: the caller owns them, and gets the failure as it is
                    }
                    throw new SinkException(g.message(e.getMessage()), e.getCause(), e.failure());
                }
                if (decision instanceof RetryDecision.Retry r) {
                    await(e, r);
                    recovery.beforeRetry();
                } else {
                    throw e;
                }
            }
        }
    }

    private void await(SinkException e, RetryDecision.Retry r) {
        retries++;
        log.warn("transient {} target failure, attempt {} of {} in {} ms: {}", target, r.nextAttempt(), policy.attempts(),
                r.after().toMillis(), e.getMessage());
        try {
            sleeper.sleep(r.after());
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new SinkException("interrupted while retrying: " + e.getMessage(), e);
        }
    }
}
