package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.Dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sink's Kafka offsets in the target ({@code tidemark_offsets}: pipeline, topic, partition → next offset), written
 * inside the batch's transaction, and fenced.
 *
 * <p>Fencing: the store remembers, per partition, the offset this sink last read (on every partition assignment the
 * runner reads them) or committed. A write is a compare-and-set against that remembered value: {@code UPDATE … SET
 * next_offset = new WHERE … AND next_offset = remembered} (or an insert only where no row exists, when the remembered
 * state is "no row"). If another member moved the offset in between, the write matches no row and
 * {@link OffsetsFencedException} is thrown, so the caller rolls the whole batch back. A member that lost its
 * partitions therefore can never overwrite a newer owner's offset with an older one. Partitions the sink never read
 * nor wrote are written unfenced (plain upsert) only until the sink first read the pipeline's offsets: callers that
 * do not consume Kafka (tests, repair) never read them; the Kafka runner always does before it writes.
 *
 * <p>Example: member A read offset 100 for {@code orders:0} and is stuck in a batch up to 150; the group gives the
 * partition to B, which reads 100 and commits 300. A's write {@code … SET next_offset = 150 WHERE next_offset = 100}
 * matches nothing: A's batch rolls back and the stored offset stays 300.
 *
 * <p>Remembered values change only with a committed transaction: {@link #write} stages them, {@link #committed()}
 * keeps them, {@link #rolledBack()} drops them. Not thread-safe; owned by one {@link JdbcChangeSink}.
 */
final class OffsetStore {
    /** Remembered "no row for this partition". */
    private static final long ABSENT = -1;

    private final Dialect dialect;
    private final SinkOptions options;
    private final Map<String, Map<Integer, Long>> known = new HashMap<>();
    private final Map<String, Map<Integer, Long>> staged = new HashMap<>();
    private boolean tableReady;
    /** Once the pipeline's offsets were read, a partition without a remembered value is remembered as "no row". */
    private boolean readOnce;

    OffsetStore(Dialect dialect, SinkOptions options) {
        this.dialect = dialect;
        this.options = options;
    }

    /** A new connection: the table is checked again before its next use. */
    void reconnected() {
        tableReady = false;
    }

    void ensureTable(TargetTables tables) throws SQLException {
        if (tableReady) {
            return;
        }
        tables.createIfAbsent(SinkOptions.OFFSETS_TABLE, "CREATE TABLE IF NOT EXISTS " + q(SinkOptions.OFFSETS_TABLE) + " ("
                + q("pipeline") + " " + dialect.textType() + " NOT NULL, "
                + q("topic") + " " + dialect.textType() + " NOT NULL, "
                + q("partition") + " " + dialect.bigintType() + " NOT NULL, "
                + q("next_offset") + " " + dialect.bigintType() + " NOT NULL, "
                + q("updated_at") + " " + dialect.textType() + ", "
                + "PRIMARY KEY (" + q("pipeline") + ", " + q("topic") + ", " + q("partition") + "))");
        tableReady = true;
    }

    /** Reads this pipeline's offsets in the caller's transaction; the caller commits, then calls {@link #remember}. */
    Map<String, Map<Integer, Long>> read(Connection connection) throws SQLException {
        return StoredOffsetsReader.read(connection, dialect, options.pipeline());
    }

    /**
     * Called after the read's transaction committed: the values read, and "no row" for every other partition, become
     * the fencing expectations.
     */
    void remember(Map<String, Map<Integer, Long>> read) {
        readOnce = true;
        for (Map<Integer, Long> partitions : known.values()) {
            partitions.replaceAll((p, o) -> ABSENT);
        }
        read.forEach((topic, partitions) -> known.computeIfAbsent(topic, t -> new HashMap<>()).putAll(partitions));
    }

    /**
     * Writes {@code offsets} in the caller's transaction, each fenced against what this sink last read or wrote.
     *
     * @throws OffsetsFencedException when another member moved a partition's offset in between (the caller rolls back)
     */
    void write(Connection connection, StatementCache statements, Collection<PartitionOffset> offsets) throws SQLException {
        if (offsets.isEmpty()) {
            return;
        }
        String now = Instant.now().toString();
        for (PartitionOffset o : offsets) {
            Long expected = Optional.ofNullable(known.get(o.topic())).map(m -> m.get(o.partition())).orElse(readOnce ? ABSENT : null);
            if (expected == null) {
                upsert(statements, o, now);
            } else if (expected == ABSENT) {
                insertIfAbsent(connection, statements, o, now);
            } else {
                PreparedStatement ps = statements.get("UPDATE " + q(SinkOptions.OFFSETS_TABLE) + " SET " + q("next_offset")
                        + " = ?, " + q("updated_at") + " = ? WHERE " + q("pipeline") + " = ? AND " + q("topic") + " = ? AND "
                        + q("partition") + " = ? AND " + q("next_offset") + " = ?");
                ps.setLong(1, o.nextOffset());
                ps.setString(2, now);
                ps.setString(3, options.pipeline());
                ps.setString(4, o.topic());
                ps.setLong(5, o.partition());
                ps.setLong(6, expected);
                if (ps.executeUpdate() != 1) {
                    throw fenced(connection, o, expected);
                }
            }
            staged.computeIfAbsent(o.topic(), t -> new HashMap<>()).put(o.partition(), o.nextOffset());
        }
    }

    /** The transaction that wrote the staged offsets committed. */
    void committed() {
        staged.forEach((topic, partitions) -> known.computeIfAbsent(topic, t -> new HashMap<>()).putAll(partitions));
        staged.clear();
    }

    /** The transaction rolled back: what was staged never happened. */
    void rolledBack() {
        staged.clear();
    }

    /** Example: {@code INSERT INTO "tidemark_offsets" (…) SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM … WHERE …)}. */
    private void insertIfAbsent(Connection connection, StatementCache statements, PartitionOffset o, String now) throws SQLException {
        PreparedStatement ps = statements.get("INSERT INTO " + q(SinkOptions.OFFSETS_TABLE) + " (" + q("pipeline") + ", "
                + q("topic") + ", " + q("partition") + ", " + q("next_offset") + ", " + q("updated_at") + ") SELECT ?, ?, ?, ?, ?"
                + dialect.constantsFrom() + " WHERE NOT EXISTS (SELECT 1 FROM "
                + q(SinkOptions.OFFSETS_TABLE) + " WHERE " + q("pipeline") + " = ? AND " + q("topic") + " = ? AND "
                + q("partition") + " = ?)");
        ps.setString(1, options.pipeline());
        ps.setString(2, o.topic());
        ps.setLong(3, o.partition());
        ps.setLong(4, o.nextOffset());
        ps.setString(5, now);
        ps.setString(6, options.pipeline());
        ps.setString(7, o.topic());
        ps.setLong(8, o.partition());
        int inserted;
        try {
            inserted = ps.executeUpdate();
        } catch (SQLException e) {
            if (e.getSQLState() != null && e.getSQLState().startsWith("23")) {
                // a concurrent member inserted the row first (unique violation): the same fence
                throw new OffsetsFencedException(options.pipeline(), o.topic(), o.partition(), null, null);
            }
            throw e;
        }
        if (inserted != 1) {
            throw fenced(connection, o, null);
        }
    }

    private void upsert(StatementCache statements, PartitionOffset o, String now) throws SQLException {
        PreparedStatement ps = statements.get(dialect.upsert(SinkOptions.OFFSETS_TABLE,
                List.of("pipeline", "topic", "partition", "next_offset", "updated_at"),
                List.of("pipeline", "topic", "partition"), List.of("next_offset", "updated_at"), null));
        ps.setString(1, options.pipeline());
        ps.setString(2, o.topic());
        ps.setLong(3, o.partition());
        ps.setLong(4, o.nextOffset());
        ps.setString(5, now);
        ps.executeUpdate();
    }

    private OffsetsFencedException fenced(Connection connection, PartitionOffset o, Long expected) throws SQLException {
        Long found = null;
        try (PreparedStatement ps = connection.prepareStatement("SELECT " + q("next_offset") + " FROM " + q(SinkOptions.OFFSETS_TABLE)
                + " WHERE " + q("pipeline") + " = ? AND " + q("topic") + " = ? AND " + q("partition") + " = ?")) {
            ps.setString(1, options.pipeline());
            ps.setString(2, o.topic());
            ps.setLong(3, o.partition());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    found = rs.getLong(1);
                }
            }
        }
        return new OffsetsFencedException(options.pipeline(), o.topic(), o.partition(), expected, found);
    }

    private String q(String identifier) {
        return dialect.quote(identifier);
    }
}
