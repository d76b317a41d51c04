package dev.tidemark.event;

/**
 * Where in the source an event comes from. The sink stores a position with every row and uses it to skip events
 * older than what the row already holds; reconcile repairs are placed just after a stored position.
 *
 * <h2>Order ({@link #compareTo})</h2>
 * Positions are totally ordered, and the order is exactly the unsigned byte order of their {@link #encode()
 * encodings}: targets compare the stored position column with SQL {@code <}/{@code <=} on that text
 * (PostgreSQL {@code COLLATE "C"}, MariaDB {@code utf8mb4_bin}, SQLite's binary collation), and Java compares
 * with {@code compareTo}, so both must agree ({@code SourcePositionCodecTest} checks it over random pairs). Stated
 * per variant:
 * <ol>
 *   <li>{@link Unknown} sorts before every other position (in SQL it is NULL and guards nothing; callers that
 *       must not order unknown positions test for it first).</li>
 *   <li>Across kinds: every {@link Watermark} position sorts before every WAL position ({@link Lsn}, {@link Wal}).
 *       The kinds never meet in one table unless a table is moved from watermark mode to capture, and then the
 *       captured changes win.</li>
 *   <li>WAL positions: by ordering LSN (unsigned); with the same ordering LSN a version 1 {@link Lsn} sorts first,
 *       then the {@link Wal} positions by (phase, change LSN).</li>
 *   <li>{@link Watermark} positions: version 1 ({@code cursor:}, no run) before version 2 ({@code cursor@}); version
 *       1 by value text as UTF-8 bytes (the poller renders cursor values so that this is cursor order); version 2 by
 *       run, then by value: a later run's read wins over an earlier run's.</li>
 *   <li>{@link After}{@code (b)}: after {@code b} and after every position that {@code b}'s encoding is a prefix of
 *       (a version 2 position of a version 1 {@code b}'s LSN; a watermark value extending {@code b}'s value), before
 *       everything else that sorts after {@code b}. {@code After(After(b))} sorts just after {@code After(b)}.</li>
 * </ol>
 *
 * <h2>Encoding ({@link #encode()}, {@link #decode(String)})</h2>
 * One grammar, every form ever written still read (HEX16 is 16 lower-case hex digits, zero-padded):
 * <pre>
 * position  = ""                                      ; Unknown (stored as NULL)
 *           / base *"~"                               ; one "~" per After
 * base      = "lsn:" HEX16                            ; Lsn, version 1 (no marker)
 *           / "lsn:" HEX16 ":v2:" PHASE ":" HEX16     ; Wal, version 2: order, phase, change
 *           / "cursor:" VALUE                         ; Watermark, version 1 (VALUE does not end with "~")
 *           / "cursor@" HEX16 ":" VALUE               ; Watermark, version 2: run, value
 * PHASE     = "0" / "1" / "2"                         ; SNAPSHOT / FIRST / STREAM
 * </pre>
 * The encoding is canonical: {@code decode(p.encode()).equals(p)} and {@code decode(s).encode().equals(s)}.
 *
 * <h2>Versions and compatibility</h2>
 * Encodings are stored in users' targets (row position columns, {@code tidemark_table_positions}), so they never
 * change meaning. Version 1 ({@code lsn:<16 hex>}) is still written for envelopes without
 * Debezium's {@code sequence} field; version 2 ({@code :v2:} after the ordering LSN) for Debezium's ordering. A
 * version 1 row sorts just before version 2 positions of the same LSN, so rows stored in the old form order sensibly
 * against new events without a migration. A new version must keep this shape ({@code lsn:<order>:v<N>:…}) and its
 * byte order; {@link #decode} refuses a version it does not know instead of guessing. Watermark positions: version 1
 * ({@code cursor:<value>}) is read, version 2 ({@code cursor@<run>:<value>}) written; {@code "@"} sorts after
 * {@code ":"}, so every stored version 1 row sorts before any version 2 read (the first numbered run wins over rows
 * copied before runs were numbered) and still before every WAL position ({@code "cursor"} &lt; {@code "lsn:"}).
 */
public sealed interface SourcePosition extends Comparable<SourcePosition> {

    /** The text stored in the target's position column; empty for {@link Unknown}. See the grammar above. */
    String encode();

    /**
     * Reads a stored encoding back; the empty text is {@link Unknown}.
     *
     * @throws IllegalArgumentException if {@code encoded} is not in the grammar (saying what was expected)
     */
    static SourcePosition decode(String encoded) {
        return PositionCodec.decode(encoded);
    }

    /** The order of the encodings as unsigned bytes, stated per variant in the type's documentation. */
    @Override
    default int compareTo(SourcePosition other) {
        return PositionOrder.compare(this, other);
    }

    /** A PostgreSQL log sequence number of the change (version 1 encoding {@code lsn:<16 hex>}). */
    record Lsn(long lsn) implements SourcePosition {
        @Override
        public String encode() {
            return PositionCodec.lsn(lsn);
        }
    }

    /**
     * A PostgreSQL change ordered by its transaction, as Debezium reports it (version 2 encoding
     * {@code lsn:<order>:v2:<phase>:<change>}).
     *
     * <ul>
     *   <li>{@link Phase#SNAPSHOT}: a row read by a snapshot; {@code order} is the snapshot's LSN, {@code change} 0.
     *       The snapshot holds every transaction committed before that LSN, so it sorts after all their changes and
     *       before every change streamed after it.</li>
     *   <li>{@link Phase#STREAM}: a streamed change; {@code order} is the commit LSN of the transaction decoded
     *       before this one (Debezium's {@code sequence[0]}, {@code lastCommitLsn}), {@code change} the change's own
     *       LSN. Transactions are decoded in commit order, so the pair grows with every change the slot streams,
     *       and a transaction that was open while a snapshot ran (changes below the snapshot's LSN, commit above it)
     *       still sorts after the snapshot: the transaction decoded before it committed after the snapshot began.</li>
     *   <li>{@link Phase#FIRST}: a streamed change for which Debezium knows no earlier commit (the first transaction
     *       after a snapshot): {@code order} is 0 until the sink {@link #atLeast raises} it to the newest snapshot LSN
     *       it applied to the table, which places the whole transaction after that snapshot's rows and before the next
     *       transaction (whose {@code order} is this one's commit). If capture restarts inside that transaction,
     *       Debezium resumes with {@code lastCommitLsn} = its last processed LSN (at or after the snapshot's), so the
     *       changes it sends again are {@link Phase#STREAM} positions that sort after every {@code FIRST} one; they
     *       are re-sent in order from the resume point, so each key still ends at its last change.</li>
     * </ul>
     */
    record Wal(long order, Phase phase, long change) implements SourcePosition {
        public Wal {
            if (phase == null) {
                throw new IllegalArgumentException("a WAL position needs a phase");
            }
        }

        /** This position with its ordering LSN raised to at least {@code lsn} (only {@link Phase#FIRST} moves). */
        public Wal atLeast(long lsn) {
            return phase == Phase.FIRST && Long.compareUnsigned(order, lsn) < 0 ? new Wal(lsn, phase, change) : this;
        }

        @Override
        public String encode() {
            return PositionCodec.wal(order, phase, change);
        }
    }

    /** How a {@link Wal} position was produced; orders positions that share an ordering LSN (declaration order). */
    enum Phase {
        SNAPSHOT('0'), FIRST('1'), STREAM('2');

        /** The phase's digit in the version 2 encoding. */
        final char digit;

        Phase(char digit) {
            this.digit = digit;
        }
    }

    /**
     * A watermark cursor position: the poller's rendering of the cursor value (and tie-break), which sorts as text in
     * cursor order, and the number of the run that read the row. It cannot end with {@code ~}, which the encoding
     * reserves for {@link After}.
     *
     * <p>{@code run} null is the version 1 form ({@code cursor:<value>}), written before runs were numbered and still
     * read. With a run (version 2, {@code cursor@<16 hex run>:<value>}) a later run's read of a row sorts after an
     * earlier run's whatever the cursor values, so a row whose cursor moved backwards (clock skew between writers, a
     * DST fall-back) and is re-read by the overlap replaces the copy an earlier run made. Within one run, positions
     * sort by value. Every version 2 position sorts after every version 1 position.
     *
     * @param value the rendered cursor value
     * @param run   the run that read the row (a per-table number that grows with every run, at least 0), or null
     */
    record Watermark(String value, Long run) implements SourcePosition {
        public Watermark {
            if (value == null) {
                throw new IllegalArgumentException("a watermark position needs a value");
            }
            if (value.endsWith(PositionCodec.AFTER)) {
                throw new IllegalArgumentException("a watermark position cannot end with '" + PositionCodec.AFTER
                        + "' (it marks a repair position): '" + value + "'");
            }
            if (run != null && run < 0) {
                throw new IllegalArgumentException("a watermark run number is at least 0: " + run);
            }
        }

        /** A version 1 position: the value alone (no run). */
        public Watermark(String value) {
            this(value, null);
        }

        /** The value-only (version 1) position of the same value: what the cursor order alone says. */
        public Watermark valueOnly() {
            return run == null ? this : new Watermark(value);
        }

        @Override
        public String encode() {
            return run == null ? PositionCodec.WATERMARK + value : PositionCodec.watermark(run, value);
        }
    }

    /**
     * Just after {@code base}, the position a target row already holds: sorts after it and before every later
     * position (see the order above for the exact rule). Reconcile repairs use it so that a repair wins over the
     * stale row it replaces and over a replay of the event that wrote that row, while any later source event still
     * wins over the repair. Encoded as {@code base}'s encoding followed by {@code ~}.
     */
    record After(SourcePosition base) implements SourcePosition {
        public After {
            if (base == null || base instanceof Unknown) {
                throw new IllegalArgumentException("a position after nothing: use Unknown");
            }
        }

        @Override
        public String encode() {
            return base.encode() + PositionCodec.AFTER;
        }
    }

    /** No position was given (e.g. a tombstone, which carries only a key). Encoded as the empty text. */
    record Unknown() implements SourcePosition {
        @Override
        public String encode() {
            return "";
        }
    }
}
