package dev.tidemark.tests.connect;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded random changes to a source table {@code (id bigint PRIMARY KEY, amount numeric(12,2), note text,
 * updated_at timestamptz, flag boolean)}: about 60% inserts, 30% updates, 10% deletes of live rows, ten statements per
 * transaction, every value bound. Used by one thread at a time.
 */
final class SourceWorkload {
    private final Connection source;
    private final String table;
    private final Random random;
    private final List<Long> live = new ArrayList<>();
    private long nextId = 1;
    private long statements;

    SourceWorkload(Connection source, String table, long seed) {
        this.source = source;
        this.table = table;
        this.random = new Random(seed);
    }

    /** Creates the table. */
    void create() throws SQLException {
        try (PreparedStatement s = source.prepareStatement("CREATE TABLE \"" + table + "\" (\"id\" bigint PRIMARY KEY,"
                + " \"amount\" numeric(12,2), \"note\" text, \"updated_at\" timestamptz(6), \"flag\" boolean)")) {
            s.execute();
        }
    }

    /** Runs {@code count} random statements. */
    void run(int count) throws SQLException {
        source.setAutoCommit(false);
        try (PreparedStatement insert = source.prepareStatement("INSERT INTO \"" + table
                + "\" (\"id\", \"amount\", \"note\", \"updated_at\", \"flag\") VALUES (?, ?, ?, ?, ?)");
             PreparedStatement update = source.prepareStatement("UPDATE \"" + table
                     + "\" SET \"amount\" = ?, \"note\" = ?, \"updated_at\" = ?, \"flag\" = ? WHERE \"id\" = ?");
             PreparedStatement delete = source.prepareStatement("DELETE FROM \"" + table + "\" WHERE \"id\" = ?")) {
            for (int i = 0; i < count; i++) {
                double op = random.nextDouble();
                if (live.size() < 10 || op < 0.6) {
                    long id = nextId++;
                    bind(insert, 1, id);
                    insert.executeUpdate();
                    live.add(id);
                } else if (op < 0.9) {
                    long id = live.get(random.nextInt(live.size()));
                    bind(update, 0, id);
                    update.setLong(5, id);
                    update.executeUpdate();
                } else {
                    long id = live.remove(random.nextInt(live.size()));
                    delete.setLong(1, id);
                    delete.executeUpdate();
                }
                if (++statements % 10 == 0) {
                    source.commit();
                }
            }
            source.commit();
        } finally {
            source.setAutoCommit(true);
        }
    }

    private void bind(PreparedStatement s, int offset, long id) throws SQLException {
        if (offset == 1) {
            s.setLong(1, id);
        }
        s.setBigDecimal(offset + 1, random.nextInt(10) == 0 ? null : BigDecimal.valueOf(random.nextInt(10_000_000) - 5_000_000L, 2));
        s.setString(offset + 2, random.nextInt(10) == 0 ? null : "note '" + id + "' ü€ " + random.nextInt(1000));
        s.setTimestamp(offset + 3, Timestamp.from(Instant.parse("2026-01-01T00:00:00Z").plusNanos(random.nextLong(1L << 50) * 1000)));
        s.setBoolean(offset + 4, random.nextBoolean());
    }

    int liveRows() {
        return live.size();
    }
}
