package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Closeable;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EngineCloseTest {
    private static final String STARTING = "Cannot stop engine while tasks are starting, this may lead to leaked resource. Wait for the tasks to be fully started.";

    /** An engine that refuses {@code refusals} closes as Debezium does while its tasks start, then takes one. */
    private static Closeable engine(int refusals, AtomicInteger calls, String message) {
        return () -> {
            if (calls.incrementAndGet() <= refusals) {
                throw new IllegalStateException(message);
            }
        };
    }

    @Test
    void aCloseRefusedWhileTasksStartIsTriedAgainUntilTheEngineTakesIt() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        assertThat(EngineClose.close(engine(3, calls, STARTING), () -> false, Duration.ofMillis(1), Duration.ofSeconds(10))).isTrue();
        assertThat(calls).hasValue(4);
    }

    @Test
    void anEngineThatStoppedByItselfIsNotClosedAgain() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        assertThat(EngineClose.close(engine(5, calls, "Engine is not running"), () -> true, Duration.ofMillis(1), Duration.ofSeconds(10))).isFalse();
        assertThat(calls).hasValue(1);
    }

    @Test
    void anotherRefusalOrOneThatOutlastsThePatienceIsThrown() {
        assertThatThrownBy(() -> EngineClose.close(engine(1, new AtomicInteger(), "Engine is not running"), () -> false,
                Duration.ofMillis(1), Duration.ofSeconds(10))).isInstanceOf(IllegalStateException.class).hasMessage("Engine is not running");
        assertThatThrownBy(() -> EngineClose.close(engine(1_000_000, new AtomicInteger(), STARTING), () -> false,
                Duration.ofMillis(1), Duration.ofMillis(30))).isInstanceOf(IllegalStateException.class).hasMessage(STARTING);
    }
}
