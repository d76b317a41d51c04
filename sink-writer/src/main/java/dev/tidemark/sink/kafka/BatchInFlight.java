package dev.tidemark.sink.kafka;

import dev.tidemark.jdbc.SinkException;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The apply thread and the one batch it may be applying. The consumer thread {@link #submit submits} a batch only
 * after {@link #await awaiting} the previous one, so at most one batch is in flight and the sink's connection is never
 * used by two threads. Consumer thread only (the apply thread only runs the submitted work).
 */
final class BatchInFlight {
    private final ExecutorService applier;
    private Future<Map<TopicPartition, OffsetAndMetadata>> current;

    BatchInFlight(String name) {
        applier = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tidemark-apply-" + name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts applying a batch; the previous one must have been awaited. */
    void submit(Callable<Map<TopicPartition, OffsetAndMetadata>> batch) {
        if (current != null) {
            throw new IllegalStateException("a batch is still in flight");
        }
        current = applier.submit(batch);
    }

    /**
     * Waits for the batch in flight, not interruptibly (the sink must not be closed under a running batch; an interrupt
     * is kept for the caller). Returns the offsets it committed to the target (empty when no batch was in flight);
     * rethrows its failure unchanged when unchecked.
     */
    Map<TopicPartition, OffsetAndMetadata> await() {
        Future<Map<TopicPartition, OffsetAndMetadata>> batch = current;
        if (batch == null) {
            return Map.of();
        }
        current = null;
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    Map<TopicPartition, OffsetAndMetadata> done = batch.get();
                    return done == null ? Map.of() : done;
                } catch (InterruptedException e) {
                    interrupted = true; // the batch still commits or fails on its own: keep waiting
                } catch (ExecutionException e) {
                    throw asUnchecked(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    void shutdown() {
        applier.shutdown();
    }

    private static RuntimeException asUnchecked(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new SinkException("applying a batch failed: " + t, t);
    }
}
