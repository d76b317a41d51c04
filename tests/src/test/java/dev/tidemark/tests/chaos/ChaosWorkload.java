package dev.tidemark.tests.chaos;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.postgresql.PGConnection;

/**
 * The writer of the chaos harness: commits a random mix into two tables until stopped — small transactions, one key
 * churned insert → update → delete → re-insert in one transaction, multi-row INSERTs, {@code COPY}, range UPDATEs and
 * DELETEs of hundreds of rows, and large transactions of {@code bigMin}–{@code bigMax} rows — with TOASTed text.
 * Faults (a restarted server, a terminated backend) only make it reconnect: what the source holds at the end is
 * what the target must hold, whatever committed.
 *
 * <p>{@code items(id bigint PK, v int, note text)}: a key space of {@link #ITEM_KEYS}; {@code lines(order_id int,
 * line text, qty int, price numeric(12,2), memo text, PK (order_id, line))}: a composite key with text.
 */
final class ChaosWorkload implements Runnable {
    static final int ITEM_KEYS = 20_000;

    private final String url;
    private final String user;
    private final Random random;
    private final int bigMin;
    private final int bigMax;
    private final int rowsPerSecond;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong rows = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicInteger nextOrder = new AtomicInteger(1_000_000);
    private Connection c;

    /** {@code rowsPerSecond}: the average write rate the writer paces itself to (bursts stay as drawn). */
    ChaosWorkload(String url, String user, long seed, int bigMin, int bigMax, int rowsPerSecond) {
        this.url = url;
        this.user = user;
        this.random = new Random(seed);
        this.bigMin = bigMin;
        this.bigMax = bigMax;
        this.rowsPerSecond = rowsPerSecond;
    }

    /** Creates both tables with an initial load (so the first snapshot has rows). */
    static void createSchema(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id bigint PRIMARY KEY, v int NOT NULL, note text)");
            s.execute("CREATE TABLE lines (order_id int, line text, qty int, price numeric(12,2), memo text, "
                    + "PRIMARY KEY (order_id, line))");
            s.execute("INSERT INTO items SELECT g, g % 97, 'item ' || g FROM generate_series(1, 2000) g");
            s.execute("INSERT INTO lines SELECT g / 4, 'line-' || (g % 4), g % 13, (g % 1000) * 1.25, NULL "
                    + "FROM generate_series(4, 2003) g");
        }
    }

    @Override
    public void run() {
        while (!stop.get()) {
            try {
                if (c == null || c.isClosed()) {
                    c = DriverManager.getConnection(url, user, "");
                    c.setAutoCommit(false);
                }
                int n = step();
                c.commit();
                commits.incrementAndGet();
                rows.addAndGet(n);
                pause(1_000L * Math.max(n, 1) / rowsPerSecond);
            } catch (SQLException e) {
                failures.incrementAndGet();
                closeQuietly();
                pause(200); // the server is restarting or our backend was terminated: reconnect
            }
        }
        closeQuietly();
    }

    /** One transaction's statements; returns the rows it touched (roughly). */
    private int step() throws SQLException {
        int pick = random.nextInt(100);
        if (pick < 40) {
            return small();
        } else if (pick < 50) {
            return churn();
        } else if (pick < 60) {
            return multiRowInsert();
        } else if (pick < 68) {
            return copy();
        } else if (pick < 83) {
            long from = rangeStart();
            return exec("UPDATE items SET v = v + 1, note = CASE WHEN id % 5 = 0 THEN note ELSE 'r' || v END "
                    + "WHERE id BETWEEN ? AND ?", from, from + 300);
        } else if (pick < 90) {
            long from = rangeStart();
            int order = 1_000_000 + random.nextInt(Math.max(1, nextOrder.get() - 1_000_000));
            return exec("DELETE FROM items WHERE id BETWEEN ? AND ?", from, from + 150)
                    + exec("DELETE FROM lines WHERE order_id BETWEEN ? AND ?", order, order + 400);
        } else {
            return big();
        }
    }

    private int small() throws SQLException {
        int n = 1 + random.nextInt(5);
        for (int i = 0; i < n; i++) {
            long id = 1 + random.nextInt(ITEM_KEYS);
            switch (random.nextInt(4)) {
                case 0 -> exec("DELETE FROM items WHERE id = ?", id);
                case 1 -> exec("UPDATE lines SET qty = qty + 1, price = price + 0.01 WHERE order_id = ?", id % 600);
                case 2 -> exec("INSERT INTO items VALUES (?, 1, " + toastOrShort() + ") ON CONFLICT (id) DO UPDATE "
                        + "SET v = items.v + 1, note = EXCLUDED.note", id);
                default -> exec("UPDATE items SET v = v * 3 % 1000 WHERE id = ?", id);
            }
        }
        return n;
    }

    /** One key inserted, updated, deleted and inserted again inside one transaction. */
    private int churn() throws SQLException {
        long id = 1 + random.nextInt(ITEM_KEYS);
        exec("DELETE FROM items WHERE id = ?", id);
        exec("INSERT INTO items VALUES (?, 1, 'churn a')", id);
        exec("UPDATE items SET v = 2, note = 'churn b' WHERE id = ?", id);
        exec("DELETE FROM items WHERE id = ?", id);
        exec("INSERT INTO items VALUES (?, 3, " + toastOrShort() + ")", id);
        return 5;
    }

    private int multiRowInsert() throws SQLException {
        long from = rangeStart();
        int n = 50 + random.nextInt(450);
        return exec("INSERT INTO items SELECT g, g % 11, 'multi ' || g FROM generate_series(?::bigint, ?::bigint) g "
                + "ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v, note = EXCLUDED.note", from, from + n - 1);
    }

    /** {@code COPY} of fresh composite keys (rows sharing few WAL records). */
    private int copy() throws SQLException {
        int n = 500 + random.nextInt(4500);
        StringBuilder data = new StringBuilder(n * 40);
        int order = nextOrder.getAndAdd(n / 3 + 1);
        for (int i = 0; i < n; i++) {
            data.append(order + i / 3).append('\t').append("copy-").append(i % 3).append('\t').append(i % 17)
                    .append('\t').append(i % 500).append('.').append(i % 100 < 10 ? "0" : "").append(i % 100)
                    .append('\t').append(i % 50 == 0 ? "\\N" : "memo " + i).append('\n');
        }
        try {
            return (int) c.unwrap(PGConnection.class).getCopyAPI()
                    .copyIn("COPY lines (order_id, line, qty, price, memo) FROM STDIN", new StringReader(data.toString()));
        } catch (java.io.IOException e) {
            throw new SQLException("COPY failed: " + e.getMessage(), "08006", e);
        }
    }

    /** A large transaction: inserts, updates and deletes of {@code bigMin}–{@code bigMax} rows in all. */
    private int big() throws SQLException {
        int n = bigMin + random.nextInt(bigMax - bigMin + 1);
        int order = nextOrder.getAndAdd(n / 2 + 1);
        int touched = exec("INSERT INTO lines SELECT ? + g / 2, 'big-' || (g % 2), g % 7, g * 0.5, repeat('x', g % 40) "
                + "FROM generate_series(0, ?) g", order, n / 2);
        long from = rangeStart();
        touched += exec("UPDATE items SET v = v + 7 WHERE id BETWEEN ? AND ?", from, from + n / 4);
        touched += exec("DELETE FROM lines WHERE order_id BETWEEN ? AND ?", order, order + n / 16);
        touched += exec("DELETE FROM items WHERE id BETWEEN ? AND ?", from + n / 4, from + n / 4 + n / 8);
        return touched;
    }

    private long rangeStart() {
        return 1 + random.nextInt(ITEM_KEYS);
    }

    /** A short note, or a long random one stored out of line (TOAST). */
    private String toastOrShort() {
        return random.nextInt(4) == 0
                ? "(SELECT string_agg(md5(random()::text), '') FROM generate_series(1, 200))"
                : "'short'";
    }

    /** Runs {@code sql} with integer parameters bound in order. */
    private int exec(String sql, Number... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                Number a = args[i];
                if (a instanceof Integer v) {
                    ps.setInt(i + 1, v);
                } else {
                    ps.setLong(i + 1, a.longValue());
                }
            }
            return ps.executeUpdate();
        }
    }

    void stop() {
        stop.set(true);
    }

    long commits() {
        return commits.get();
    }

    long rows() {
        return rows.get();
    }

    long failures() {
        return failures.get();
    }

    private void closeQuietly() {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // reconnecting anyway
            }
            c = null;
        }
    }

    private static void pause(long millis) {
        java.util.concurrent.locks.LockSupport.parkNanos(millis * 1_000_000L);
    }
}
