package dev.tidemark.bench;

import dev.tidemark.bench.LatencyStats.LagSample;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One steady-rate scenario of {@code bench/latency.sh}: writers commit transactions of {@code txnRows} new rows into
 * the source table {@code lat} on a fixed schedule (open loop: transaction n is due at start + n × txnRows ÷ rate; a
 * writer that falls behind commits at once), and one reader polls the target for the rows that became visible. A
 * transaction's latency is the time from its {@code commit()} returning to the first poll that saw its last row (a
 * poll's time is taken when its query starts, so the figure includes up to one poll interval). Every second the lag
 * (rows committed, not yet visible) is sampled. Warm-up transactions are written and awaited but not counted.
 * {@code writers} connections write, each its share of the transactions.
 */
record LatencyLoad(JdbcEndpoint source, JdbcEndpoint target, int writers) {
    static final String TABLE = "lat";

    /** What one scenario measured. */
    record Result(int txnRows, int rate, double achievedRate, long txns, long p50Micros, long p90Micros, long p99Micros,
                  long p999Micros, long maxMicros, double lagSlope, long maxLag, long finalLag) {
    }

    /**
     * Runs one scenario: {@code warmupSeconds} then {@code seconds} at {@code rate} changes/s in transactions of
     * {@code txnRows} rows, ids from {@code firstId}; waits (at most {@code drainSeconds}) until every row is visible.
     */
    Result run(long firstId, int txnRows, int rate, int warmupSeconds, int seconds, int drainSeconds) throws Exception {
        double txnPerSecond = rate / (double) txnRows;
        int warmTxns = (int) Math.round(txnPerSecond * warmupSeconds);
        int txns = warmTxns + (int) Math.round(txnPerSecond * seconds);
        long[] committedAt = new long[txns];
        long[] lastRowSeen = new long[txns];
        AtomicLong committedRows = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long start = System.nanoTime() + 200_000_000L;
        long periodNanos = Math.round(1e9 / txnPerSecond);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int first = w;
            Thread t = new Thread(() -> write(first, txns, firstId, txnRows, start, periodNanos, committedAt, committedRows, failure),
                    "latency-writer-" + w);
            t.start();
            threads.add(t);
        }
        List<LagSample> lag = new ArrayList<>();
        long seenRows = poll(firstId, txnRows, txns, warmTxns, start, periodNanos, lastRowSeen, committedRows, lag, failure,
                drainSeconds, threads);
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("latency scenario " + txnRows + "-row txns at " + rate + "/s: " + failure.get(), failure.get());
        }
        if (seenRows < (long) txns * txnRows) {
            throw new IllegalStateException("latency scenario " + txnRows + "-row txns at " + rate + "/s: only " + seenRows + " of "
                    + (long) txns * txnRows + " rows visible in the target " + drainSeconds + " s after the last commit");
        }
        long measured = txns - warmTxns;
        long[] micros = new long[(int) measured];
        long firstCommit = Long.MAX_VALUE;
        long lastCommit = Long.MIN_VALUE;
        for (int n = warmTxns; n < txns; n++) {
            micros[n - warmTxns] = Math.max(0, (lastRowSeen[n] - committedAt[n]) / 1000);
            firstCommit = Math.min(firstCommit, committedAt[n]);
            lastCommit = Math.max(lastCommit, committedAt[n]);
        }
        double achieved = (measured - 1) * (double) txnRows / Math.max(1e-9, (lastCommit - firstCommit) / 1e9);
        long maxLag = lag.stream().mapToLong(LagSample::lag).max().orElse(0);
        long finalLag = lag.isEmpty() ? 0 : lag.get(lag.size() - 1).lag();
        return new Result(txnRows, rate, achieved, measured, LatencyStats.percentile(micros, 50), LatencyStats.percentile(micros, 90),
                LatencyStats.percentile(micros, 99), LatencyStats.percentile(micros, 99.9), LatencyStats.percentile(micros, 100),
                LatencyStats.lagSlope(lag), maxLag, finalLag);
    }

    /** Writer {@code first} commits transactions first, first + writers, …, each when it is due. */
    private void write(int first, int txns, long firstId, int txnRows, long start, long periodNanos, long[] committedAt,
                       AtomicLong committedRows, AtomicReference<Throwable> failure) {
        try (Connection c = source.connect();
             PreparedStatement ins = c.prepareStatement("INSERT INTO \"" + TABLE + "\" (\"id\", \"txn\", \"note\") VALUES (?, ?, ?)")) {
            c.setAutoCommit(false);
            for (int n = first; n < txns && failure.get() == null; n += writers) {
                long due = start + n * periodNanos;
                long wait;
                while ((wait = due - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                for (int j = 0; j < txnRows; j++) {
                    ins.setLong(1, firstId + (long) n * txnRows + j);
                    ins.setLong(2, n);
                    ins.setString(3, "latency probe row of transaction " + n);
                    if (txnRows == 1) {
                        ins.executeUpdate();
                    } else {
                        ins.addBatch();
                    }
                }
                if (txnRows > 1) {
                    ins.executeBatch();
                }
                c.commit();
                committedAt[n] = System.nanoTime();
                committedRows.addAndGet(txnRows);
            }
        } catch (SQLException | RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    /**
     * Polls the target until every row is visible or {@code drainSeconds} passed after the last writer finished;
     * returns the rows seen. Rows can become visible out of id order (they travel on several partitions), so the query
     * reads from the lowest id not yet seen.
     */
    private long poll(long firstId, int txnRows, int txns, int warmTxns, long start, long periodNanos, long[] lastRowSeen,
                      AtomicLong committedRows, List<LagSample> lag, AtomicReference<Throwable> failure,
                      int drainSeconds, List<Thread> writerThreads) throws SQLException {
        long rows = (long) txns * txnRows;
        boolean[] seen = new boolean[(int) rows];
        int[] rowsLeft = new int[txns];
        Arrays.fill(rowsLeft, txnRows);
        long low = 0; // every row below firstId + low is seen
        long seenRows = 0;
        long windowStart = start + warmTxns * periodNanos;
        long nextSample = windowStart;
        long writersDoneAt = -1;
        try (Connection c = target.connect();
             PreparedStatement q = c.prepareStatement("SELECT \"id\" FROM \"" + TABLE + "\" WHERE \"id\" >= ? AND \"id\" < ? ORDER BY \"id\" LIMIT 50000")) {
            c.setAutoCommit(true);
            while (seenRows < rows && failure.get() == null) {
                long now = System.nanoTime();
                if (writersDoneAt < 0 && writerThreads.stream().noneMatch(Thread::isAlive)) {
                    writersDoneAt = now;
                }
                if (writersDoneAt > 0 && now - writersDoneAt > drainSeconds * 1_000_000_000L) {
                    break;
                }
                q.setLong(1, firstId + low);
                q.setLong(2, firstId + rows);
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        int i = (int) (rs.getLong(1) - firstId);
                        if (!seen[i]) {
                            seen[i] = true;
                            seenRows++;
                            int n = i / txnRows;
                            if (--rowsLeft[n] == 0) {
                                lastRowSeen[n] = now;
                            }
                        }
                    }
                }
                while (low < rows && seen[(int) low]) {
                    low++;
                }
                if (now >= nextSample && now <= start + (long) txns * periodNanos) {
                    lag.add(new LagSample((now - windowStart) / 1e9, committedRows.get() - seenRows));
                    nextSample += 1_000_000_000L;
                }
                LockSupport.parkNanos(1_000_000L);
            }
        }
        return seenRows;
    }
}
