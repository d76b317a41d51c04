package dev.tidemark.reconcile;

import java.sql.SQLException;

/**
 * The merge-join of two sides' rows, both in key order: a key on the source only is missing, a key on the target
 * only is surplus, a key on both whose contents differ is changed. Pure: it only pulls rows and records keys, so the
 * same join serves every kind of row ({@link RowFormat}) and every source of rows (a {@link RowStream}, a list).
 */
final class MergeJoin {
    private MergeJoin() {
    }

    /** Rows in key order, one at a time. */
    @FunctionalInterface
    interface Rows<R> {
        /** The next row, or null after the last. */
        R next() throws SQLException;
    }

    /** Rows read on each side. */
    record Counts(long sourceRows, long targetRows) {
    }

    /** Joins {@code source} with {@code target}, adding every difference to {@code found}. */
    static <R> Counts join(Rows<R> source, Rows<R> target, RowFormat<R> format, Differences found) throws SQLException {
        R a = source.next();
        R b = target.next();
        long sourceRows = 0;
        long targetRows = 0;
        while (a != null || b != null) {
            int c = a == null ? 1 : b == null ? -1 : format.compare(a, b);
            if (c < 0) {
                found.missing(format.key(a));
                a = source.next();
                sourceRows++;
            } else if (c > 0) {
                found.surplus(format.key(b));
                b = target.next();
                targetRows++;
            } else {
                if (!format.sameContent(a, b)) {
                    found.changed(format.key(a));
                }
                a = source.next();
                b = target.next();
                sourceRows++;
                targetRows++;
            }
        }
        return new Counts(sourceRows, targetRows);
    }
}
