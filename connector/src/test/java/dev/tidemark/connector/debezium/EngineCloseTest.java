package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Closeable;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EngineCloseTest {
    private static final String STARTING = "Cannot stop engine while tasks are starting, this may lead to leaked resource. Wait for the tasks to be fully started.";
    private static final EngineStopPlan.Policy FAST = new EngineStopPlan.Policy(Duration.ofMillis(1), Duration.ofSeconds(10),
            Duration.ofMillis(50), Duration.ofSeconds(5));

    /** The engine's end report: counted down as Debezium's completion callback does. */
    private final CountDownLatch reported = new CountDownLatch(1);
    private final EngineClose.EndReport end = wait -> reported.await(wait.toNanos(), TimeUnit.NANOSECONDS);

    /** An engine that refuses {@code refusals} closes with {@code message}, then takes one; reports its end if {@code reports}. */
    private Closeable engine(int refusals, AtomicInteger calls, String message, boolean reports) {
        return () -> {
            if (calls.incrementAndGet() <= refusals) {
                throw new IllegalStateException(message);
            }
            if (reports) {
                reported.countDown();
            }
        };
    }

    @Test
    void aCloseRefusedWhileTasksStartIsTriedAgainUntilTheEngineTakesIt() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger interrupts = new AtomicInteger();
        assertThat(EngineClose.stop(engine(3, calls, STARTING, true), end, interrupts::incrementAndGet, FAST)).isEqualTo(new EngineStopPlan.Done());
        assertThat(calls).hasValue(4);
        assertThat(interrupts).as("an engine that reports its end is not interrupted").hasValue(0);
    }

    @Test
    void aTakenCloseThatLeavesTheEngineThreadWaitingIsEndedByInterruptingThatThread() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger interrupts = new AtomicInteger();
        // as Debezium after a close taken while its polling task was queued: the thread reports only once interrupted
        Runnable interrupt = () -> {
            interrupts.incrementAndGet();
            reported.countDown();
        };
        assertThat(EngineClose.stop(engine(0, calls, STARTING, false), end, interrupt, FAST)).isEqualTo(new EngineStopPlan.Done());
        assertThat(calls).hasValue(1);
        assertThat(interrupts).hasValue(1);
    }

    @Test
    void anEngineStoppingByItselfIsAwaitedAndNotClosedAgain() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger interrupts = new AtomicInteger();
        // the engine's own thread reports its end a moment after the refused close (here: once the refusal was made)
        Closeable stoppingByItself = () -> {
            calls.incrementAndGet();
            new Thread(reported::countDown).start();
            throw new IllegalStateException("Engine is already being shutting down.");
        };
        assertThat(EngineClose.stop(stoppingByItself, end, interrupts::incrementAndGet, FAST))
                .isEqualTo(new EngineStopPlan.Done());
        assertThat(calls).hasValue(1);
        assertThat(interrupts).hasValue(0);
    }

    @Test
    void anotherRefusalOrOneThatOutlastsThePatienceIsGivenUpSayingSo() throws Exception {
        assertThat(EngineClose.stop(engine(1, new AtomicInteger(), "Engine is not running", true), end, () -> { }, FAST))
                .isEqualTo(new EngineStopPlan.GiveUp("Debezium's engine refused to stop: Engine is not running"));
        EngineStopPlan.Policy brief = new EngineStopPlan.Policy(Duration.ofMillis(1), Duration.ofMillis(30), Duration.ofMillis(50), Duration.ofSeconds(5));
        assertThat(EngineClose.stop(engine(1_000_000, new AtomicInteger(), STARTING, true), end, () -> { }, brief))
                .isInstanceOf(EngineStopPlan.GiveUp.class).hasToString("GiveUp[why=Debezium's engine was still starting its tasks after 0 s]");
    }
}
