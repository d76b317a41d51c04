package dev.tidemark.reconcile;

/**
 * Splits the inclusive integer key range {@code [lo, hi]} into {@code count} segments of equal width (the last may
 * be narrower). Segment {@code i} holds keys {@code lo + i*width … min(hi, lo + (i+1)*width - 1)}.
 *
 * <p>Worked example: keys 1…1,000,000 in 100 segments → width 10,000; key 1 is in segment 0, key 10,000 in 0,
 * key 10,001 in 1, key 1,000,000 in 99.
 */
record Bucketing(long lo, long hi, int count, long width) {
    Bucketing {
        if (hi < lo || count < 1 || width == 0) { // width is unsigned: the whole long range has halves of 2^63
            throw new IllegalArgumentException("bad bucketing " + lo + ".." + hi + " / " + count + " × " + width);
        }
    }

    /** At most {@code maxCount} segments of equal width over {@code [lo, hi]}, never wider than needed. */
    static Bucketing of(long lo, long hi, long maxCount) {
        // span - 1 always fits a long; the width needs no more than that
        long spanMinusOne = hi - lo; // may overflow into a negative for spans over 2^63
        long n = Math.max(spanMinusOne == -1 ? 2 : 1, maxCount); // the whole long range needs two halves
        long width = Long.divideUnsigned(spanMinusOne, n) + 1;
        long count = Long.divideUnsigned(spanMinusOne, width) + 1;
        return new Bucketing(lo, hi, (int) count, width);
    }

    /** The segment of {@code key}, which must lie in {@code [lo, hi]}. */
    int bucket(long key) {
        return (int) Long.divideUnsigned(key - lo, width);
    }

    boolean contains(long key) {
        return key >= lo && key <= hi;
    }

    long segmentLo(int i) {
        return lo + i * width;
    }

    long segmentHi(int i) {
        long end = segmentLo(i) + (width - 1);
        // past hi, or wrapped around the top of the long range
        return end > hi || end < segmentLo(i) ? hi : end;
    }

    /** Keys in segment {@code i} (as an unsigned count). */
    long segmentSpan(int i) {
        return segmentHi(i) - segmentLo(i) + 1;
    }
}
