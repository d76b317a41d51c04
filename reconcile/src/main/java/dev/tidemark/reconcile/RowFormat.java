package dev.tidemark.reconcile;

import java.util.Arrays;
import java.util.List;

/**
 * How a merge-join handles one kind of row: the key order, whether two rows with the same key have the same content,
 * the key to report, and how a key is named when the order is broken.
 *
 * <p>Two kinds: {@link IntegerKeys} (a single integer key, rows travel as (key, hash) pairs of longs read through the
 * same fast paths as the segment checksums; key text is built only for keys found different) and {@link TextKeys}
 * (any key: canonical text per key column with its sortable form). Implementations are immutable.
 *
 * @param <R> the row type
 */
interface RowFormat<R> {

    /** Negative, zero or positive as {@code a}'s key sorts before, equal to or after {@code b}'s. */
    int compare(R a, R b);

    /** True when two rows with equal keys have the same content. */
    boolean sameContent(R a, R b);

    /** The row's key, as reported. */
    RowKey key(R row);

    /** The row's key in an error message. */
    String describe(R row);

    /** What the key order requires, appended to the message when a side breaks it. */
    String orderRule();

    /** A row with a single integer key: its key and row hash. */
    record KeyHash(long key, long hash) {
    }

    /** Rows of a table whose key is one integer column. */
    final class IntegerKeys implements RowFormat<KeyHash> {
        @Override
        public int compare(KeyHash a, KeyHash b) {
            return Long.compare(a.key(), b.key());
        }

        @Override
        public boolean sameContent(KeyHash a, KeyHash b) {
            return a.hash() == b.hash();
        }

        @Override
        public RowKey key(KeyHash row) {
            return RowKey.of(Long.toString(row.key()));
        }

        @Override
        public String describe(KeyHash row) {
            return Long.toString(row.key());
        }

        @Override
        public String orderRule() {
            return ": keys must be unique and sorted";
        }
    }

    /** A row with any key: the key as canonical text per key column, its sortable form ({@link KeyOrder}) and the row hash. */
    record Keyed(String[] key, Object[] sort, long hash) {
    }

    /** Rows of a table with any key, ordered by {@link KeyOrder}. */
    final class TextKeys implements RowFormat<Keyed> {
        private final KeyOrder order;
        private final List<String> keyColumns;

        TextKeys(KeyOrder order, List<String> keyColumns) {
            this.order = order;
            this.keyColumns = List.copyOf(keyColumns);
        }

        @Override
        public int compare(Keyed a, Keyed b) {
            return order.compare(a.sort(), b.sort());
        }

        @Override
        public boolean sameContent(Keyed a, Keyed b) {
            return a.hash() == b.hash();
        }

        @Override
        public RowKey key(Keyed row) {
            return new RowKey(Arrays.asList(row.key()));
        }

        @Override
        public String describe(Keyed row) {
            return Arrays.toString(row.key());
        }

        @Override
        public String orderRule() {
            return " ordered by " + keyColumns + ": its ordering of these key values differs from byte order "
                    + "(or the key is not unique), so the two sides cannot be merged";
        }
    }
}
