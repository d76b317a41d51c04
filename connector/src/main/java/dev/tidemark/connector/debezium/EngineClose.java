package dev.tidemark.connector.debezium;

import dev.tidemark.connector.debezium.EngineStopPlan.Met;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;

/**
 * Stops Debezium's engine at any moment of its start or run, as {@link EngineStopPlan} says: the close tried again
 * while the engine refuses it (tasks starting), and the engine's own thread interrupted when a taken close left it
 * waiting for a polling task the close dropped. Waits are on the engine's end report, so they end as soon as it comes.
 * Thread-safe as far as {@code engine.close()} is; one caller at a time.
 */
final class EngineClose {
    /** 200 ms between closes, 120 s for the tasks to start, 2 s for the end report before the interrupt, 10 s after. */
    static final EngineStopPlan.Policy POLICY = new EngineStopPlan.Policy(Duration.ofMillis(200), Duration.ofSeconds(120),
            Duration.ofSeconds(2), Duration.ofSeconds(10));

    private EngineClose() {
    }

    /** The engine's end report (its completion callback), awaited. */
    @FunctionalInterface
    interface EndReport {
        /** Whether the engine has reported its end, waiting {@code wait} at most (zero: no wait). */
        boolean await(Duration wait) throws InterruptedException;
    }

    /**
     * Stops {@code engine}.
     *
     * @param end                   the engine's end report
     * @param interruptEngineThread interrupts the thread that runs the engine
     * @return {@link EngineStopPlan.Done} once the engine reported its end, else {@link EngineStopPlan.GiveUp} saying
     *         what it was doing
     */
    static EngineStopPlan.Step stop(Closeable engine, EndReport end, Runnable interruptEngineThread, EngineStopPlan.Policy policy)
            throws IOException, InterruptedException {
        long first = System.nanoTime();
        long stoppedAt = 0;
        boolean stopping = false; // the close was taken or the engine was seen stopping (since stoppedAt)
        boolean interrupted = false;
        String refusal = null;
        Met last = null;
        while (true) {
            if (last == null || last == Met.STARTING_TASKS || last == Met.STATE_MOVED) {
                try {
                    engine.close();
                    last = Met.TOOK_CLOSE;
                } catch (IllegalStateException e) {
                    refusal = e.getMessage();
                    last = Met.refusal(refusal);
                }
                if (!stopping && last != Met.STARTING_TASKS && last != Met.STATE_MOVED) {
                    stopping = true;
                    stoppedAt = System.nanoTime();
                }
            }
            EngineStopPlan.Step step = EngineStopPlan.next(new EngineStopPlan.Observed(last, end.await(Duration.ZERO), interrupted,
                    since(first), stopping ? since(stoppedAt) : Duration.ZERO), policy);
            if (step instanceof EngineStopPlan.Done || step instanceof EngineStopPlan.GiveUp) {
                return step instanceof EngineStopPlan.GiveUp g && last == Met.OTHER_REFUSAL ? new EngineStopPlan.GiveUp(g.why() + ": " + refusal) : step;
            } else if (step instanceof EngineStopPlan.CloseAgain c) {
                end.await(c.atMost());
            } else if (step instanceof EngineStopPlan.AwaitReport a) {
                end.await(a.atMost());
            } else if (step instanceof EngineStopPlan.InterruptEngineThread) {
                interruptEngineThread.run();
                interrupted = true;
            }
        }
    }

    private static Duration since(long nanos) {
        return Duration.ofNanos(System.nanoTime() - nanos);
    }
}
