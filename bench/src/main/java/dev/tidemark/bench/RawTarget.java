package dev.tidemark.bench;

import dev.tidemark.jdbc.TemporalText;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.TopicPartition;

/**
 * The hand-written baselines' write side: one transaction per batch holding the batch's upserts and deletes (already
 * collapsed to one change per key, so their order does not matter) and the next offset of each partition in a
 * {@code bench_offsets} table. No position column, no position guard, no schema handling: the floor a sink writer
 * can be measured against. Table {@code items(id bigint key, amount numeric(12,2), note text, changed_at timestamptz,
 * active boolean, quantity int)} in each engine's types (SQLite: the same declared types Tidemark creates).
 */
sealed interface RawTarget extends AutoCloseable permits RawTarget.Batched {

    /** Writes the collapsed changes and the offsets in one transaction. */
    void apply(Collection<RawChange> changes, Map<TopicPartition, Long> nextOffsets) throws SQLException;

    Connection connection();

    @Override
    default void close() throws SQLException {
        connection().close();
    }

    static RawTarget open(String kind, String url, String user) throws SQLException {
        return switch (kind) {
            case "raw-sqlite" -> new SqliteRows(url);
            case "raw-pg-rows" -> new PostgresRows(url, user);
            case "raw-pg-unnest" -> new PostgresUnnest(url, user);
            default -> throw new IllegalArgumentException("no raw target " + kind);
        };
    }

    private static Connection postgres(String url, String user) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        Connection c = DriverManager.getConnection(url, p);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id BIGINT NOT NULL, amount NUMERIC(12,2), note TEXT, changed_at TIMESTAMPTZ, "
                    + "active BOOLEAN, quantity INTEGER, PRIMARY KEY (id))");
            s.execute("CREATE TABLE bench_offsets (topic TEXT NOT NULL, \"partition\" INTEGER NOT NULL, next_offset BIGINT NOT NULL, "
                    + "PRIMARY KEY (topic, \"partition\"))");
        }
        c.setAutoCommit(false);
        return c;
    }

    private static void storeOffsets(PreparedStatement ps, Map<TopicPartition, Long> next) throws SQLException {
        for (Map.Entry<TopicPartition, Long> e : next.entrySet()) {
            ps.setString(1, e.getKey().topic());
            ps.setInt(2, e.getKey().partition());
            ps.setLong(3, e.getValue());
            ps.addBatch();
        }
        ps.executeBatch();
    }

    String UPSERT_SET = " ON CONFLICT (id) DO UPDATE SET amount = excluded.amount, note = excluded.note, "
            + "changed_at = excluded.changed_at, active = excluded.active, quantity = excluded.quantity";
    String OFFSETS_UPSERT = "INSERT INTO bench_offsets (topic, \"partition\", next_offset) VALUES (?, ?, ?) "
            + "ON CONFLICT (topic, \"partition\") DO UPDATE SET next_offset = excluded.next_offset";

    /** A baseline's connection and its three prepared statements: the upsert, the delete and the offsets upsert. */
    record Prepared(Connection c, PreparedStatement upsert, PreparedStatement delete, PreparedStatement offsets) {
        static Prepared of(Connection c, String upsertSql, String deleteSql) throws SQLException {
            return new Prepared(c, c.prepareStatement(upsertSql), c.prepareStatement(deleteSql), c.prepareStatement(OFFSETS_UPSERT));
        }
    }

    /** What every baseline does per batch: its own writes, then the offsets, then one commit. */
    abstract sealed class Batched implements RawTarget permits PerRow, PostgresUnnest {
        final Prepared p;

        Batched(Prepared p) {
            this.p = p;
        }

        /** Writes the batch's upserts and deletes with {@link #p}'s statements, inside the batch's transaction. */
        abstract void write(Collection<RawChange> changes) throws SQLException;

        @Override
        public final void apply(Collection<RawChange> changes, Map<TopicPartition, Long> nextOffsets) throws SQLException {
            write(changes);
            storeOffsets(p.offsets(), nextOffsets);
            p.c().commit();
        }

        @Override
        public Connection connection() {
            return p.c();
        }
    }

    /**
     * The per-row shape shared by the SQLite and PostgreSQL loops: one prepared upsert and one prepared delete, each
     * row bound and added to its batch, both batches executed. Subclasses say how an
     * upsert's values are bound in their engine's types.
     */
    abstract sealed class PerRow extends Batched permits SqliteRows, PostgresRows {
        PerRow(Connection c) throws SQLException {
            super(Prepared.of(c, "INSERT INTO items (id, amount, note, changed_at, active, quantity) VALUES (?, ?, ?, ?, ?, ?)" + UPSERT_SET,
                    "DELETE FROM items WHERE id = ?"));
        }

        /** Binds parameters 1–6 of the upsert for one row. */
        abstract void bindUpsert(PreparedStatement upsert, RawChange ch) throws SQLException;

        @Override
        void write(Collection<RawChange> changes) throws SQLException {
            int ups = 0;
            int dels = 0;
            for (RawChange ch : changes) {
                if (ch.delete()) {
                    p.delete().setLong(1, ch.id());
                    p.delete().addBatch();
                    dels++;
                } else {
                    bindUpsert(p.upsert(), ch);
                    p.upsert().addBatch();
                    ups++;
                }
            }
            if (ups > 0) {
                p.upsert().executeBatch();
            }
            if (dels > 0) {
                p.delete().executeBatch();
            }
        }

        static void bindQuantity(PreparedStatement upsert, RawChange ch) throws SQLException {
            if (ch.quantity() == null) {
                upsert.setNull(6, Types.INTEGER);
            } else {
                upsert.setInt(6, ch.quantity());
            }
        }
    }

    /** SQLite, same pragmas as Tidemark's SQLite dialect (WAL, synchronous=NORMAL), one prepared statement each. */
    final class SqliteRows extends PerRow {
        SqliteRows(String url) throws SQLException {
            super(sqlite(url));
        }

        private static Connection sqlite(String url) throws SQLException {
            Connection c = DriverManager.getConnection(url);
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=NORMAL");
                s.execute("PRAGMA busy_timeout=10000");
                s.execute("CREATE TABLE \"items\" (\"id\" INTEGER NOT NULL, \"amount\" DECIMAL_TEXT(12,2), \"note\" TEXT, "
                        + "\"changed_at\" TIMESTAMPTZ_TEXT, \"active\" BOOLEAN_INTEGER, \"quantity\" INTEGER, PRIMARY KEY (\"id\"))");
                s.execute("CREATE TABLE bench_offsets (topic TEXT NOT NULL, \"partition\" INTEGER NOT NULL, next_offset INTEGER NOT NULL, "
                        + "PRIMARY KEY (topic, \"partition\"))");
            }
            c.setAutoCommit(false);
            return c;
        }

        @Override
        void bindUpsert(PreparedStatement upsert, RawChange ch) throws SQLException {
            upsert.setLong(1, ch.id());
            if (ch.amount() == null) {
                upsert.setNull(2, Types.VARCHAR);
            } else {
                upsert.setString(2, ch.amount().toPlainString());
            }
            upsert.setString(3, ch.note());
            if (ch.changedAt() == null) {
                upsert.setNull(4, Types.VARCHAR);
            } else {
                upsert.setString(4, TemporalText.instant(ch.changedAt()));
            }
            upsert.setInt(5, ch.active() ? 1 : 0);
            bindQuantity(upsert, ch);
        }
    }

    /**
     * PostgreSQL, the per-row pattern (as Debezium's JDBC sink and most hand-written sinks do it): one
     * {@code INSERT … ON CONFLICT … DO UPDATE} per row and one {@code DELETE … WHERE id = ?} per row, each sent with
     * {@code addBatch}/{@code executeBatch}; pgjdbc defaults ({@code reWriteBatchedInserts=false}).
     */
    final class PostgresRows extends PerRow {
        PostgresRows(String url, String user) throws SQLException {
            super(postgres(url, user));
        }

        @Override
        void bindUpsert(PreparedStatement upsert, RawChange ch) throws SQLException {
            upsert.setLong(1, ch.id());
            upsert.setBigDecimal(2, ch.amount());
            upsert.setString(3, ch.note());
            upsert.setObject(4, ch.changedAt() == null ? null : OffsetDateTime.ofInstant(ch.changedAt(), ZoneOffset.UTC), Types.TIMESTAMP_WITH_TIMEZONE);
            upsert.setBoolean(5, ch.active());
            bindQuantity(upsert, ch);
        }
    }

    /**
     * PostgreSQL, set-based: one {@code INSERT … SELECT * FROM unnest(?::int8[], …) ON CONFLICT … DO UPDATE} for all
     * upserts of the batch and one {@code DELETE … WHERE id = ANY(?)} for all deletes, arrays bound as parameters
     * (decimals and timestamps as text arrays cast by the server).
     */
    final class PostgresUnnest extends Batched {
        PostgresUnnest(String url, String user) throws SQLException {
            super(Prepared.of(postgres(url, user), "INSERT INTO items (id, amount, note, changed_at, active, quantity) "
                    + "SELECT * FROM unnest(?::int8[], ?::numeric[], ?::text[], ?::timestamptz[], ?::bool[], ?::int4[])" + UPSERT_SET,
                    "DELETE FROM items WHERE id = ANY(?)"));
        }

        @Override
        void write(Collection<RawChange> changes) throws SQLException {
            int n = 0;
            int d = 0;
            for (RawChange ch : changes) {
                if (ch.delete()) {
                    d++;
                } else {
                    n++;
                }
            }
            Long[] ids = new Long[n];
            String[] amounts = new String[n];
            String[] notes = new String[n];
            String[] times = new String[n];
            Boolean[] actives = new Boolean[n];
            Integer[] quantities = new Integer[n];
            Long[] deleted = new Long[d];
            int i = 0;
            int j = 0;
            for (RawChange ch : changes) {
                if (ch.delete()) {
                    deleted[j++] = ch.id();
                } else {
                    ids[i] = ch.id();
                    BigDecimal a = ch.amount();
                    amounts[i] = a == null ? null : a.toPlainString();
                    notes[i] = ch.note();
                    times[i] = ch.changedAt() == null ? null : ch.changedAt().toString();
                    actives[i] = ch.active();
                    quantities[i] = ch.quantity();
                    i++;
                }
            }
            if (n > 0) {
                Connection c = p.c();
                Array[] arrays = {c.createArrayOf("int8", ids), c.createArrayOf("text", amounts), c.createArrayOf("text", notes),
                    c.createArrayOf("text", times), c.createArrayOf("bool", actives), c.createArrayOf("int4", quantities)};
                for (int k = 0; k < arrays.length; k++) {
                    p.upsert().setArray(k + 1, arrays[k]);
                }
                p.upsert().executeUpdate();
            }
            if (d > 0) {
                p.delete().setArray(1, p.c().createArrayOf("int8", deleted));
                p.delete().executeUpdate();
            }
        }
    }
}
