package dev.tidemark.sink.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.RetryPolicy;
import dev.tidemark.jdbc.SinkException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The retry loop with a recording sleeper and recovery: no database. */
class RetryingExecutorTest {
    private final List<Duration> waits = new ArrayList<>();
    private final List<String> events = new ArrayList<>();
    private final RetryingExecutor executor = new RetryingExecutor("test", () -> events.add("recover"), wait -> {
        waits.add(wait);
        events.add("wait " + wait.toMillis());
    });

    {
        executor.policy(new RetryPolicy(3, Duration.ofMillis(10), Duration.ofMillis(15)));
    }

    private static SinkException transientFailure() {
        return new SinkException("table t: connection lost", new SQLException("lost", "08006"));
    }

    @Test
    void retriesTransientFailuresWaitingThenRecoveringBeforeEachNextAttempt() {
        int[] attempts = {0};
        String result = executor.run(() -> {
            if (++attempts[0] < 3) {
                throw transientFailure();
            }
            return "done";
        });
        assertThat(result).isEqualTo("done");
        assertThat(events).containsExactly("wait 10", "recover", "wait 15", "recover");
        assertThat(executor.retries()).isEqualTo(2);
    }

    @Test
    void givesUpAfterTheLastAttemptKeepingCauseAndFailure() {
        SQLException cause = new SQLException("lost", "08006");
        assertThatThrownBy(() -> executor.run(() -> {
            throw new SinkException("table t: connection lost", cause);
        })).isInstanceOfSatisfying(SinkException.class, e -> {
            assertThat(e.getMessage()).isEqualTo("table t: connection lost (gave up after 3 attempts; offsets not advanced: "
                    + "make the target reachable, then restart the sink)");
            assertThat(e.getCause()).isSameAs(cause);
            assertThat(e.failure()).isInstanceOf(Failure.Transient.class);
        });
        assertThat(waits).hasSize(2);
    }

    @Test
    void aFaultStopsAtOnceUnchanged() {
        SinkException fault = new SinkException("table t: permission denied", new SQLException("denied", "42501"));
        assertThatThrownBy(() -> executor.run(() -> {
            throw fault;
        })).isSameAs(fault);
        assertThat(events).isEmpty();
        assertThat(executor.retries()).isZero();
    }

    @Test
    void anInterruptedWaitStopsKeepingTheInterrupt() {
        RetryingExecutor interrupted = new RetryingExecutor("test", () -> events.add("recover"), wait -> {
            throw new InterruptedException();
        });
        assertThatThrownBy(() -> interrupted.run(() -> {
            throw transientFailure();
        })).isInstanceOf(SinkException.class).hasMessageStartingWith("interrupted while retrying: table t: connection lost");
        assertThat(Thread.interrupted()).isTrue();
        assertThat(events).isEmpty();
    }
}
