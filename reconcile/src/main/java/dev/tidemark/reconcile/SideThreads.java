package dev.tidemark.reconcile;

import java.sql.SQLException;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The two threads of one reconcile run, one per side: runs a task on each side at the same time and hands back both
 * results, with a failure on either side surfaced as the {@link SQLException} or unchecked exception it was.
 *
 * <p>Owned by one run; {@link #close()} stops both threads. Not shared between runs.
 */
final class SideThreads implements AutoCloseable {
    private final ExecutorService threads;

    /** Both sides' results. */
    record Both<S, T>(S source, T target) {
    }

    SideThreads(String name) {
        AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "reconcile-" + name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts {@code task} on one of the two threads. */
    <V> Future<V> submit(Callable<V> task) {
        return threads.submit(task);
    }

    /** Runs one task per side at the same time and returns both results once both are done. */
    <S, T> Both<S, T> both(Callable<S> onSource, Callable<T> onTarget) throws SQLException {
        Future<S> s = threads.submit(onSource);
        Future<T> t = threads.submit(onTarget);
        try {
            return new Both<>(s.get(), t.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            awaitQuietly(s);
            awaitQuietly(t);
            throw rethrow(e.getCause());
        }
    }

    /** A task's failure as the caller should see it: an SQLException returned, unchecked ones thrown as they are. */
    static SQLException rethrow(Throwable cause) {
        if (cause instanceof SQLException e) {
            return e;
        }
        if (cause instanceof RuntimeException e) {
            throw e;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        return new SQLException(cause.getMessage(), cause);
    }

    /** Waits for {@code f} to end, ignoring how it ended (the failure was reported already). */
    static void awaitQuietly(Future<?> f) {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | CancellationException ignored) {
            // reported by the caller already
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
