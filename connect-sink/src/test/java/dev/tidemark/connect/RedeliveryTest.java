package dev.tidemark.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.jdbc.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RedeliveryTest {
    private static final RetryPolicy POLICY = new RetryPolicy(4, Duration.ofMillis(200), Duration.ofMillis(500));

    @Test
    void waitsGrowWithJitterBetweenHalfAndAllOfTheBackoff() {
        assertThat(new Redelivery(POLICY, () -> 0.0).failed("x")).isEqualTo(new Redelivery.Backoff(2, 100));
        assertThat(new Redelivery(POLICY, () -> 0.999_999).failed("x")).isEqualTo(new Redelivery.Backoff(2, 199));
        Redelivery r = new Redelivery(POLICY, () -> 0.5);
        assertThat(r.failed("x")).isEqualTo(new Redelivery.Backoff(2, 150));
        assertThat(r.failed("x")).isEqualTo(new Redelivery.Backoff(3, 300));
        assertThat(r.failed("x")).isEqualTo(new Redelivery.Backoff(4, 375)); // capped at 500 ms, then jittered
    }

    @Test
    void theLastAttemptGivesUpWithOneLineNamingTheAttemptsAndTheWayOn() {
        Redelivery r = new Redelivery(POLICY, () -> 0.5);
        for (int i = 0; i < 3; i++) {
            assertThat(r.failed("target busy")).isInstanceOf(Redelivery.Backoff.class);
        }
        assertThat(r.failed("target busy")).isEqualTo(new Redelivery.GiveUp("target busy (gave up after 4 attempts; offsets"
                + " not advanced: make the target reachable, then restart the task: POST /connectors/<name>/tasks/<id>/restart)"));
    }

    @Test
    void aPutThatAppliesStartsTheCountAgain() {
        Redelivery r = new Redelivery(POLICY, () -> 0.0);
        r.failed("x");
        r.failed("x");
        r.succeeded();
        assertThat(r.failed("x")).isEqualTo(new Redelivery.Backoff(2, 100));
    }

    @Test
    void oneAttemptGivesUpAtOnce() {
        assertThat(new Redelivery(RetryPolicy.NONE, () -> 0.0).failed("x")).isInstanceOf(Redelivery.GiveUp.class);
    }
}
