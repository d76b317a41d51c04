package dev.tidemark.connector.demo;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The demo's sample table {@code public.orders} and a seeded stream of inserts, updates and deletes against it.
 * Values exercise exact types: decimals with two places, timestamps with microseconds and a zone, text with
 * quotes and non-ASCII characters, and NULLs.
 */
public final class DemoWorkload {
    private static final String[] CUSTOMERS = {"Ada Lovelace", "O'Brien & Sons", "Zoë \"Zed\" Ñúñez", "株式会社タイド", "Grace Hopper"};
    private static final String[] STATUSES = {"new", "paid", "shipped", "returned"};

    private final Random random;
    private final List<Long> live = new ArrayList<>();
    private long nextId = 1;

    public DemoWorkload(long seed) {
        this.random = new Random(seed);
    }

    public static void createTable(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE public.orders (id bigint PRIMARY KEY, customer text NOT NULL, amount numeric(12,2), "
                    + "status text, placed_at timestamptz(6), note text)");
        }
    }

    /** Inserts {@code n} rows in one transaction; returns how many. */
    public int insert(Connection c, int n) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO public.orders (id, customer, amount, status, placed_at, note) VALUES (?, ?, ?, ?, ?, ?)")) {
            for (int i = 0; i < n; i++) {
                long id = nextId++;
                ps.setLong(1, id);
                ps.setString(2, CUSTOMERS[random.nextInt(CUSTOMERS.length)]);
                ps.setBigDecimal(3, random.nextInt(10) == 0 ? null : BigDecimal.valueOf(random.nextInt(10_000_000), 2));
                ps.setString(4, STATUSES[0]);
                ps.setObject(5, OffsetDateTime.of(2026, 1 + random.nextInt(12), 1 + random.nextInt(28), random.nextInt(24),
                        random.nextInt(60), random.nextInt(60), random.nextInt(1_000_000) * 1000, ZoneOffset.ofHours(random.nextInt(5) - 2)));
                ps.setString(6, random.nextInt(3) == 0 ? null : "note ‘" + id + "’ – it's \"quoted\"");
                ps.addBatch();
                live.add(id);
            }
            ps.executeBatch();
        }
        commit(c);
        return n;
    }

    /** Updates up to {@code n} random live rows (status and amount); returns how many. */
    public int update(Connection c, int n) throws SQLException {
        int done = 0;
        try (PreparedStatement ps = c.prepareStatement("UPDATE public.orders SET status = ?, amount = ? WHERE id = ?")) {
            for (int i = 0; i < n && !live.isEmpty(); i++) {
                ps.setString(1, STATUSES[1 + random.nextInt(STATUSES.length - 1)]);
                ps.setBigDecimal(2, BigDecimal.valueOf(random.nextInt(10_000_000), 2));
                ps.setLong(3, live.get(random.nextInt(live.size())));
                ps.addBatch();
                done++;
            }
            ps.executeBatch();
        }
        commit(c);
        return done;
    }

    /** Deletes up to {@code n} random live rows; returns how many. */
    public int delete(Connection c, int n) throws SQLException {
        int done = 0;
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM public.orders WHERE id = ?")) {
            for (int i = 0; i < n && !live.isEmpty(); i++) {
                ps.setLong(1, live.remove(random.nextInt(live.size())));
                ps.addBatch();
                done++;
            }
            ps.executeBatch();
        }
        commit(c);
        return done;
    }

    private static void commit(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }
}
