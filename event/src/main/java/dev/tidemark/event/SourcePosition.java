package dev.tidemark.event;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Where in the source an event comes from. Positions of one kind are totally ordered; the sink uses them to skip
 * events older than what a target row already holds. The order is that of the {@link #render() renderings} compared
 * as bytes ({@link #compareRendered}), which is how every target compares its position column.
 *
 * <p>Renderings, oldest form first:
 * <ul>
 *   <li>{@code lsn:<16 hex>} ({@link Lsn}, version 1): the change's LSN alone. Still written for envelopes without
 *       Debezium's {@code sequence} field (Tidemark's own encoder, tests);</li>
 *   <li>{@code lsn:<16 hex>:v2:<phase>:<16 hex>} ({@link Wal}, version 2): an ordering LSN, a phase digit and the
 *       change's LSN. A version-1 rendering of the same ordering LSN is a prefix of it and sorts first, so rows
 *       stored in the old form order sensibly against new events without a migration;</li>
 *   <li>{@code cursor:<value>} ({@link Watermark}): watermark mode;</li>
 *   <li>{@code <stored>~} ({@link After}): reconcile repairs.</li>
 * </ul>
 */
public sealed interface SourcePosition {

    /** A comparable rendering stored in the target's position column. */
    String render();

    /**
     * Compares two renderings the way the targets compare the position column: as UTF-8 bytes, unsigned. Only
     * non-empty renderings are positions; the empty one ({@link Unknown}) orders before all and guards nothing.
     */
    static int compareRendered(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    /** A PostgreSQL log sequence number of the change (version 1 rendering). */
    record Lsn(long lsn) implements SourcePosition {
        @Override
        public String render() {
            return "lsn:" + hex(lsn);
        }
    }

    /**
     * A PostgreSQL change ordered by its transaction, as Debezium reports it (version 2 rendering
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
        public String render() {
            return "lsn:" + hex(order) + ":v2:" + phase.digit + ":" + hex(change);
        }
    }

    /** How a {@link Wal} position was produced; the digit orders positions that share an ordering LSN. */
    enum Phase {
        SNAPSHOT('0'), FIRST('1'), STREAM('2');

        final char digit;

        Phase(char digit) {
            this.digit = digit;
        }
    }

    /** A watermark cursor value (rendered so that string order equals cursor order). */
    record Watermark(String value) implements SourcePosition {
        @Override
        public String render() {
            return "cursor:" + value;
        }
    }

    /**
     * Just after a position a target row already holds ({@code stored}, as rendered): renders as {@code stored + "~"},
     * which sorts after {@code stored} and before every strictly later position of the same kind (renderings are
     * fixed-width per version, and {@code ~} sorts after every character they use). Reconcile repairs use it so that a
     * repair wins over the stale row it replaces and over a replay of the event that wrote that row, while any later
     * source event still wins over the repair.
     */
    record After(String stored) implements SourcePosition {
        public After {
            if (stored == null || stored.isEmpty()) {
                throw new IllegalArgumentException("a position after nothing: use Unknown");
            }
        }

        @Override
        public String render() {
            return stored + "~";
        }
    }

    /** No position was given (e.g. a tombstone, which carries only a key). */
    record Unknown() implements SourcePosition {
        @Override
        public String render() {
            return "";
        }
    }

    private static String hex(long value) {
        String hex = Long.toHexString(value);
        return "0".repeat(16 - hex.length()) + hex;
    }
}
