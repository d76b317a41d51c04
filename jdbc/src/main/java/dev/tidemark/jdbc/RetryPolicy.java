package dev.tidemark.jdbc;

import java.time.Duration;

/**
 * Bounded retries with exponential backoff for transient target failures; after the last attempt the failure is
 * fatal. Default: 8 attempts, 200 ms doubling to at most 10 s (about 40 s in all).
 */
public record RetryPolicy(int attempts, Duration initialBackoff, Duration maxBackoff) {
    public static final RetryPolicy DEFAULT = new RetryPolicy(8, Duration.ofMillis(200), Duration.ofSeconds(10));
    public static final RetryPolicy NONE = new RetryPolicy(1, Duration.ZERO, Duration.ZERO);

    public RetryPolicy {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1 but is " + attempts);
        }
    }

    /** The wait before attempt {@code n} (n ≥ 2). */
    public Duration backoff(int n) {
        long ms = initialBackoff.toMillis() << Math.min(n - 2, 20);
        return Duration.ofMillis(Math.min(ms, maxBackoff.toMillis()));
    }
}
