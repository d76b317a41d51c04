package dev.tidemark.connector.debezium;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The acknowledgements of the records sent for one change (a key update sent as delete, tombstone and insert: {@link
 * KeyRestore}) as one: done when all are, failed when one failed; {@link #get()} waits for each in order and returns the
 * last one's metadata.
 */
record AllAcks(List<Future<RecordMetadata>> acks) implements Future<RecordMetadata> {
    AllAcks {
        if (acks.isEmpty()) {
            throw new IllegalArgumentException("no acknowledgement to wait for");
        }
        acks = List.copyOf(acks);
    }

    /** The one future of {@code acks} when there is one, else all of them as one. */
    static Future<RecordMetadata> of(List<Future<RecordMetadata>> acks) {
        return acks.size() == 1 ? acks.get(0) : new AllAcks(acks);
    }

    @Override
    public RecordMetadata get() throws InterruptedException, ExecutionException {
        RecordMetadata last = null;
        for (Future<RecordMetadata> f : acks) {
            last = f.get();
        }
        return last;
    }

    @Override
    public RecordMetadata get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        RecordMetadata last = null;
        for (Future<RecordMetadata> f : acks) {
            last = f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        return last;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return false; // a record handed to the producer is not taken back
    }

    @Override
    public boolean isCancelled() {
        return false;
    }

    @Override
    public boolean isDone() {
        return acks.stream().allMatch(Future::isDone);
    }
}
