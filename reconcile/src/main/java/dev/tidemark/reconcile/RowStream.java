package dev.tidemark.reconcile;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * One side's rows in key order, read on a thread of their own: the reader fills a small bounded queue with batches
 * of rows, and {@link #next()} hands them out one at a time, checking that keys ascend strictly (a side whose order
 * differs from the merge's, or whose key is not unique, fails the merge with a message naming both keys). Memory
 * stays bounded however many rows the side has.
 *
 * <p>A failure of the reader (an {@link SQLException} or unchecked exception) is thrown by {@link #next()} as it
 * was. {@link #close()} stops the reader (it gives up at its next batch) and waits for its thread to end.
 *
 * <p>Not thread-safe: one consumer thread; the reader runs on a thread of {@link SideThreads}.
 *
 * @param <R> the row type
 */
final class RowStream<R> implements MergeJoin.Rows<R>, AutoCloseable {
    /** Rows per batch handed from the reader to the consumer. */
    static final int BATCH = 512;
    private static final int QUEUED_BATCHES = 8;
    private static final Object END = new Object();

    /** Reads one side's rows in key order, handing each to {@code rows}. */
    @FunctionalInterface
    interface Reader<R> {
        void read(Consumer<R> rows) throws SQLException;
    }

    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(QUEUED_BATCHES);
    private final AtomicBoolean stop = new AtomicBoolean();
    private final String side;
    private final String table;
    private final RowFormat<R> format;
    private Future<Long> producer;
    private List<R> batch = List.of();
    private int at;
    private R last;

    private RowStream(String side, String table, RowFormat<R> format) {
        this.side = side;
        this.table = table;
        this.format = format;
    }

    /**
     * Starts reading on one of {@code threads}.
     *
     * @param side     {@code source} or {@code target}, for messages
     * @param table    the side's table, for messages
     * @param progress receives the number of rows read so far after each full batch
     */
    static <R> RowStream<R> start(SideThreads threads, String side, String table, RowFormat<R> format, Reader<R> reader,
                                  LongConsumer progress) {
        RowStream<R> s = new RowStream<>(side, table, format);
        s.producer = threads.submit(() -> s.produce(reader, progress));
        return s;
    }

    private long produce(Reader<R> reader, LongConsumer progress) throws SQLException {
        List<R> rows = new ArrayList<>(BATCH);
        long[] n = {0};
        try {
            reader.read(row -> {
                rows.add(row);
                if (rows.size() == BATCH) {
                    put(new ArrayList<>(rows));
                    rows.clear();
                    progress.accept(n[0] += BATCH);
                }
            });
            if (!rows.isEmpty()) {
                put(new ArrayList<>(rows));
            }
            put(END);
        } catch (RuntimeException | SQLException e) {
            if (!stop.get()) {
                queue.offer(e);
            }
            throw e;
        }
        return n[0];
    }

    private void put(Object item) {
        try {
            while (!queue.offer(item, 100, TimeUnit.MILLISECONDS)) {
                if (stop.get()) {
                    throw new Stopped();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Stopped();
        }
    }

    /** The next row in key order, or null after the last. */
    @Override
    public R next() throws SQLException {
        try {
            while (at == batch.size()) {
                Object o = queue.poll(200, TimeUnit.MILLISECONDS);
                if (o == null) {
                    if (producer.isDone() && queue.isEmpty()) {
                        producer.get(); // surfaces a failure that never reached the queue
                        throw new IllegalStateException("the " + side + " reader ended without finishing its rows");
                    }
                    continue;
                }
                if (o == END) {
                    return null;
                }
                if (o instanceof SQLException e) {
                    throw e;
                }
                if (o instanceof RuntimeException e) {
                    throw e;
                }
                @SuppressWarnings("unchecked")
                List<R> b = (List<R>) o;
                batch = b;
                at = 0;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw SideThreads.rethrow(e.getCause());
        }
        R row = batch.get(at++);
        if (last != null && format.compare(last, row) >= 0) {
            throw new IllegalStateException("the " + side + " returned key " + format.describe(row) + " after "
                    + format.describe(last) + " for table " + table + format.orderRule());
        }
        last = row;
        return row;
    }

    /** Waits for the reader to end after the last row, throwing its failure if it failed. */
    void finish() throws SQLException {
        try {
            producer.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw SideThreads.rethrow(e.getCause());
        }
    }

    /** Stops the reader and waits for its thread to end. Idempotent. */
    @Override
    public void close() {
        stop.set(true);
        queue.clear();
        SideThreads.awaitQuietly(producer);
    }

    /** The consumer stopped early; the reader gives up quietly. */
    private static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("merge stopped", null, false, false);
        }
    }
}
