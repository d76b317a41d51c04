package dev.tidemark.connector.debezium;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Closes Debezium's engine even while it is still starting its tasks. The engine refuses a close in that state
 * ({@code IllegalStateException: Cannot stop engine while tasks are starting}), which happens when the other half of
 * {@code tidemark run} stops within moments of the start (a sink refusing its stored offsets, say): the close is then
 * tried again every {@code retry} until the engine takes it or has stopped by itself, for at most {@code patience}.
 * Thread-safe as far as {@code engine.close()} is.
 */
final class EngineClose {
    private EngineClose() {
    }

    /**
     * Closes {@code engine}.
     *
     * @param stopped whether the engine has stopped by itself (a refusal then means nothing is left to close)
     * @return whether the engine took the close (false: it was still starting after {@code patience}, or had stopped)
     */
    static boolean close(Closeable engine, BooleanSupplier stopped, Duration retry, Duration patience)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            try {
                engine.close();
                return true;
            } catch (IllegalStateException e) {
                if (stopped.getAsBoolean()) {
                    return false;
                }
                if (!startingTasks(e) || System.nanoTime() - deadline >= 0) {
                    throw e;
                }
                Thread.sleep(retry.toMillis()); // the engine offers no event for "tasks started" that a refused close could await
            }
        }
    }

    /** Whether {@code e} is the engine's refusal to close while its tasks are starting. */
    static boolean startingTasks(IllegalStateException e) {
        return e.getMessage() != null && e.getMessage().contains("while tasks are starting");
    }
}
