package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * What the sink does after attempt {@code n} of a unit of work failed: a pure decision from the {@link RetryPolicy},
 * the attempt number and the {@link Failure} kind.
 *
 * <ul>
 *   <li>{@link Retry}: a transient failure with attempts left: wait {@link Retry#after()}, then try attempt
 *       {@link Retry#nextAttempt()}.</li>
 *   <li>{@link GiveUp}: a transient failure on the last attempt: stop, saying how many attempts were made and what to
 *       do ({@link GiveUp#message(String)}).</li>
 *   <li>{@link Fail}: not transient (a fault of the target, or a row the target rejects): stop at once with the
 *       failure as it is; retrying would fail the same way.</li>
 * </ul>
 *
 * <p>Example with {@link RetryPolicy#DEFAULT} (8 attempts, 200 ms doubling to at most 10 s): a transient failure of
 * attempt 1 → retry attempt 2 after 200 ms; of attempt 3 → attempt 4 after 800 ms; of attempt 8 → give up.
 */
sealed interface RetryDecision permits RetryDecision.Retry, RetryDecision.GiveUp, RetryDecision.Fail {

    /** Decides after attempt {@code attempt} (1 for the first) failed with {@code failure}. */
    static RetryDecision after(RetryPolicy policy, int attempt, Failure failure) {
        Objects.requireNonNull(failure, "failure");
        if (!(failure instanceof Failure.Transient)) {
            return new Fail();
        }
        if (attempt >= policy.attempts()) {
            return new GiveUp(attempt);
        }
        return new Retry(attempt + 1, policy.backoff(attempt + 1));
    }

    /** Wait {@code after}, then make attempt {@code nextAttempt}. */
    record Retry(int nextAttempt, Duration after) implements RetryDecision {
    }

    /** Transient, but the attempts ran out after {@code attempts}. */
    record GiveUp(int attempts) implements RetryDecision {
        /** The failure's message with how many attempts were made and what the operator does next. */
        String message(String failureMessage) {
            return failureMessage + " (gave up after " + attempts + " attempts; offsets not advanced: "
                    + "make the target reachable, then restart the sink)";
        }
    }

    /** Not worth retrying: the failure stands as it is. */
    record Fail() implements RetryDecision {
    }
}
