package dev.tidemark.testkit;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded, endless stream of change events for one six-column table, shaped as capture emits them: about 70%
 * inserts, 20% updates and 10% deletes, each delete followed by its tombstone, source positions
 * ({@link SourcePosition.Lsn}) strictly increasing. Used by the sink crash tests and the sink benchmark to build a
 * Kafka backlog without a source database; the same seed gives the same stream.
 *
 * <p>Table (as PostgreSQL would declare it):
 * <pre>
 * id bigint PRIMARY KEY, amount numeric(12,2), note text NOT NULL, changed_at timestamptz(6),
 * active boolean NOT NULL, quantity int NULL
 * </pre>
 * Keys are drawn at random from {@code 1..keySpace}: an insert takes a key that is not live (a deleted key may come
 * back), an update or delete a live one. Notes carry quotes, backslashes, tabs, newlines and non-ASCII text;
 * timestamps have microseconds; about a fifth of the quantities are NULL. Updates carry the full new row, as
 * Debezium's {@code after} does. When every key is live an insert becomes an update, and with no live key an update
 * or delete becomes an insert, so keep {@code keySpace} well above the number of inserts to keep the mix.
 *
 * <p>Not thread-safe. Memory: two {@code int} arrays of {@code keySpace} entries; rows are not kept.
 */
public final class SyntheticChangeStream {
    public static final String ID = "id";
    public static final List<String> COLUMNS = List.of(ID, "amount", "note", "changed_at", "active", "quantity");

    /** The schema of every row, key column {@code id}. */
    public static final RowSchema SCHEMA = new RowSchema(List.of(
            new Column(ID, ColumnType.of("int64"), false),
            new Column("amount", new ColumnType("bytes", ColumnType.DECIMAL, Map.of("scale", "2", "connect.decimal.precision", "12")), true),
            new Column("note", ColumnType.of("string"), false),
            new Column("changed_at", new ColumnType("string", ColumnType.ZONED_TIMESTAMP, Map.of()), true),
            new Column("active", ColumnType.of("boolean"), false),
            new Column("quantity", ColumnType.of("int32"), true)), List.of(ID));

    private static final String[] NOTES = {
        "O'Brien & Sons", "say \"hello\"", "back\\slash", "Zoë Ñúñez", "株式会社タイド", "Ελληνικά", "עברית",
        "tab\there", "two\nlines", "e\u0301 combining", "rocket 🚀", "it's ‘curly’ – “quoted”", "plain",
    };
    private static final long FIRST_LSN = 0x1_0000_0000L;

    private final TableId table;
    private final Random random;
    private final int[] keys;
    private final int[] slot;
    private int live;
    private long lsn = FIRST_LSN;
    private ChangeEvent.Delete pendingTombstone;
    private final long[] counts = new long[4];

    /**
     * @param table    the source table named in every event
     * @param seed     the random seed: equal seeds give equal streams
     * @param keySpace keys are {@code 1..keySpace}
     */
    public SyntheticChangeStream(TableId table, long seed, int keySpace) {
        if (keySpace < 1) {
            throw new IllegalArgumentException("keySpace must be at least 1 but is " + keySpace);
        }
        this.table = table;
        this.random = new Random(seed);
        this.keys = new int[keySpace];
        this.slot = new int[keySpace + 1];
        for (int i = 0; i < keySpace; i++) {
            keys[i] = i + 1;
            slot[i + 1] = i;
        }
    }

    public TableId table() {
        return table;
    }

    /**
     * The next event: an {@link ChangeEvent.Upsert} (op {@code c} or {@code u}), a {@link ChangeEvent.Delete}, or
     * right after a delete its tombstone (a {@code Delete} with {@code tombstone() == true} and no position).
     */
    public ChangeEvent next() {
        if (pendingTombstone != null) {
            ChangeEvent.Delete t = pendingTombstone;
            pendingTombstone = null;
            counts[3]++;
            return t;
        }
        lsn += 1 + random.nextInt(64);
        double r = random.nextDouble();
        boolean insert = live == 0 || (r < 0.70 && live < keys.length);
        if (insert) {
            int k = keys[live + random.nextInt(keys.length - live)];
            move(k, true);
            counts[0]++;
            return upsert(k, ChangeEvent.Op.CREATE);
        }
        int k = keys[random.nextInt(live)];
        if (r < 0.90) {
            counts[1]++;
            return upsert(k, ChangeEvent.Op.UPDATE);
        }
        move(k, false);
        counts[2]++;
        Map<String, Object> key = Map.of(ID, (long) k);
        pendingTombstone = new ChangeEvent.Delete(table, key, new SourcePosition.Unknown(), true);
        return new ChangeEvent.Delete(table, key, new SourcePosition.Lsn(lsn), false);
    }

    /** Events produced so far by kind: inserts, updates, deletes, tombstones. */
    public long[] counts() {
        return counts.clone();
    }

    /** How many keys are live (inserted and not deleted) after the events produced so far. */
    public int liveKeys() {
        return live;
    }

    private ChangeEvent.Upsert upsert(int k, ChangeEvent.Op op) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put(ID, (long) k);
        row.put("amount", BigDecimal.valueOf(random.nextLong(-99_999_999_999L, 100_000_000_000L), 2));
        row.put("note", NOTES[random.nextInt(NOTES.length)] + " #" + random.nextInt(1_000_000));
        // 2000-01-01 .. 2030-12-31 with microseconds
        row.put("changed_at", Instant.ofEpochSecond(946_684_800L + random.nextInt(978_307_200), random.nextInt(1_000_000) * 1_000L));
        row.put("active", random.nextBoolean());
        row.put("quantity", random.nextInt(5) == 0 ? null : (long) random.nextInt(-1_000, 100_000));
        return new ChangeEvent.Upsert(table, Map.of(ID, (long) k), SCHEMA, row, new SourcePosition.Lsn(lsn), op);
    }

    /** Moves key {@code k} into the live prefix of {@code keys} or out of it. */
    private void move(int k, boolean toLive) {
        int from = slot[k];
        int to = toLive ? live : live - 1;
        int other = keys[to];
        keys[to] = k;
        slot[k] = to;
        keys[from] = other;
        slot[other] = from;
        live += toLive ? 1 : -1;
    }
}
