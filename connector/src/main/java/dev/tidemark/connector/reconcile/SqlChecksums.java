package dev.tidemark.connector.reconcile;

import java.sql.SQLException;
import java.util.function.LongConsumer;

/** Segment checksums computed inside the database (PostgreSQL, MariaDB): see {@link #supports}. */
final class SqlChecksums implements SegmentChecksums {
    private final TableShape shape;

    SqlChecksums(TableShape shape) {
        this.shape = shape;
    }

    static boolean supports(TableShape shape, Engine source, Engine target) {
        return false;
    }

    @Override
    public String method() {
        return "in-database";
    }

    @Override
    public Checksums compute(TableSide side, Bucketing buckets, boolean whole, LongConsumer progress) throws SQLException {
        throw new UnsupportedOperationException("not yet");
    }
}
