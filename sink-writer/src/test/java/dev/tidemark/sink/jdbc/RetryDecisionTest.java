package dev.tidemark.sink.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryDecisionTest {
    private static final RetryPolicy POLICY = new RetryPolicy(4, Duration.ofMillis(100), Duration.ofMillis(300));

    @Test
    void aTransientFailureWithAttemptsLeftIsRetriedAfterTheBackoffOfTheNextAttempt() {
        assertThat(RetryDecision.after(POLICY, 1, new Failure.Transient())).isEqualTo(new RetryDecision.Retry(2, Duration.ofMillis(100)));
        assertThat(RetryDecision.after(POLICY, 2, new Failure.Transient())).isEqualTo(new RetryDecision.Retry(3, Duration.ofMillis(200)));
        assertThat(RetryDecision.after(POLICY, 3, new Failure.Transient()))
                .as("capped at the policy's longest wait").isEqualTo(new RetryDecision.Retry(4, Duration.ofMillis(300)));
    }

    @Test
    void aTransientFailureOfTheLastAttemptGivesUpSayingWhatToDo() {
        RetryDecision d = RetryDecision.after(POLICY, 4, new Failure.Transient());
        assertThat(d).isEqualTo(new RetryDecision.GiveUp(4));
        assertThat(((RetryDecision.GiveUp) d).message("table t: connection refused")).isEqualTo("table t: connection refused (gave up after 4 "
                + "attempts; offsets not advanced: make the target reachable, then restart the sink)");
        assertThat(RetryDecision.after(RetryPolicy.NONE, 1, new Failure.Transient())).isEqualTo(new RetryDecision.GiveUp(1));
    }

    @Test
    void faultsAndRejectedRowsAreNeverRetried() {
        assertThat(RetryDecision.after(POLICY, 1, new Failure.RowRejected())).isEqualTo(new RetryDecision.Fail());
        assertThat(RetryDecision.after(POLICY, 1, new Failure.Fault(Failure.Cause.PRIVILEGE))).isEqualTo(new RetryDecision.Fail());
        assertThat(RetryDecision.after(POLICY, 4, new Failure.Fault(Failure.Cause.OTHER))).isEqualTo(new RetryDecision.Fail());
    }

    @Test
    void theDefaultPolicyWaits200MsDoublingUpToTenSeconds() {
        assertThat(RetryDecision.after(RetryPolicy.DEFAULT, 1, new Failure.Transient())).isEqualTo(new RetryDecision.Retry(2, Duration.ofMillis(200)));
        assertThat(RetryDecision.after(RetryPolicy.DEFAULT, 3, new Failure.Transient())).isEqualTo(new RetryDecision.Retry(4, Duration.ofMillis(800)));
        assertThat(RetryDecision.after(RetryPolicy.DEFAULT, 7, new Failure.Transient())).isEqualTo(new RetryDecision.Retry(8, Duration.ofSeconds(10)));
        assertThat(RetryDecision.after(RetryPolicy.DEFAULT, 8, new Failure.Transient())).isEqualTo(new RetryDecision.GiveUp(8));
    }
}
