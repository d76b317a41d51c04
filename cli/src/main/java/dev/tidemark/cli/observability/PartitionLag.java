package dev.tidemark.cli.observability;

/**
 * The sink's lag on one partition, computed from what it last saw and applied (pure).
 *
 * <p>Records: the log end minus the next offset the target holds ({@code applied}); before the sink applied anything
 * since it started, its consumer position stands in for it (equal to the stored offset until the first poll returns
 * records). Seconds: 0 when nothing is left to apply; else the age of the last record applied, an upper bound of how
 * far the target is behind (the next record was written after it); unknown (NaN) when nothing was applied yet.
 *
 * @param records lag in records, NaN when the log end is not known yet
 * @param seconds lag in seconds, NaN when unknown
 */
public record PartitionLag(double records, double seconds) {
    /** {@code -1} marks an unknown value in each parameter. */
    public static PartitionLag of(long endOffset, long position, long applied, long lastAppliedTimestampMs, long nowMs) {
        long next = applied >= 0 ? applied : position;
        if (endOffset < 0 || next < 0) {
            return new PartitionLag(Double.NaN, Double.NaN);
        }
        long records = Math.max(0, endOffset - next);
        if (records == 0) {
            return new PartitionLag(0, 0);
        }
        double seconds = lastAppliedTimestampMs < 0 ? Double.NaN : Math.max(0, nowMs - lastAppliedTimestampMs) / 1000.0;
        return new PartitionLag(records, seconds);
    }
}
