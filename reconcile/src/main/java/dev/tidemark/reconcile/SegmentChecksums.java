package dev.tidemark.reconcile;

import java.sql.SQLException;
import java.util.function.LongConsumer;

/**
 * Computes the checksum (row count and sum of row hashes) of every segment of a {@link Bucketing} on one side, in one
 * pass. Both sides of a comparison always use the same implementation, so their checksums are comparable.
 */
interface SegmentChecksums {

    /** {@code streamed} or {@code in-database}. */
    String method();

    /**
     * @param lo       the lowest key to read, or null for no lower bound (the first pass reads the whole table)
     * @param hi       the highest key to read, or null for no upper bound
     * @param progress receives the number of rows checksummed so far, now and then (may be ignored)
     */
    Checksums compute(TableSide side, Bucketing buckets, Long lo, Long hi, LongConsumer progress) throws SQLException;

    /** Per-segment row counts and hash sums. */
    record Checksums(long[] counts, long[] sums) {
        /** All zero, for the segments of {@code b}: what a side fills in while it reads. */
        static Checksums zero(Bucketing b) {
            return new Checksums(new long[b.count()], new long[b.count()]);
        }

        long rows() {
            long n = 0;
            for (long c : counts) {
                n += c;
            }
            return n;
        }

        boolean same(Checksums other, int i) {
            return counts[i] == other.counts[i] && sums[i] == other.sums[i];
        }
    }

    /**
     * Every row read and hashed in Java ({@link RowHash} over {@link CanonicalValues#ofText}): works for any engine
     * and any pair of engines, since both sides normalise through the same code. Rows whose key lies outside the
     * bucketing (inserted after its bounds were read) are left out on both sides.
     */
    final class Streamed implements SegmentChecksums {
        Streamed() {
        }

        @Override
        public String method() {
            return "streamed";
        }

        @Override
        public Checksums compute(TableSide side, Bucketing b, Long lo, Long hi, LongConsumer progress) throws SQLException {
            Checksums out = Checksums.zero(b);
            long[] counts = out.counts();
            long[] sums = out.sums();
            long[] seen = {0};
            side.hashRows(lo, hi, new TableSide.HashSink() {
                @Override
                public void accept(long key, long hash) {
                    if (b.contains(key)) {
                        int i = b.bucket(key);
                        counts[i]++;
                        sums[i] += hash;
                    }
                    if ((++seen[0] & 0x3FFF) == 0) {
                        progress.accept(seen[0]);
                    }
                }

                @Override
                public void restart() {
                    java.util.Arrays.fill(counts, 0);
                    java.util.Arrays.fill(sums, 0);
                }
            });
            progress.accept(seen[0]);
            return out;
        }
    }
}
