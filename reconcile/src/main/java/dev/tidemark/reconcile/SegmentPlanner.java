package dev.tidemark.reconcile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The pure decisions of a segmented comparison (integer first key): which key range to cut into how many segments,
 * which mismatching segments to bisect and which to compare row by row, and how adjacent row comparisons are
 * merged into one range query. No I/O: the numbers come from the sides, the decisions go back to
 * {@link SegmentScan}.
 *
 * <p>Worked example (segment rows 10,000): source keys 1…1,000,000 and target keys 5…999,000, both estimated at
 * 100,000 rows (stale statistics) → first pass over [1, 1,000,000] in 10 segments of 100,000 keys. Segment 7,
 * [700,001, 800,000], differs and holds 100,000 rows: with in-database checksums it is bisected into 10 parts of
 * 10,000 keys, and a part that still differs (at most 10,000 rows) is compared row by row; with streamed checksums
 * segment 7 is compared row by row at once. Adjacent parts to compare, [720,001, 730,000] and [730,001, 740,000],
 * become one range [720,001, 740,000] (one query per side), spanning at most 16 first-pass segments.
 */
final class SegmentPlanner {
    /** Most segments in the first pass. */
    static final int MAX_SEGMENTS = 1 << 20;
    /** Most first-pass segments merged in one range query. */
    static final long MAX_COALESCED = 16;
    /** Most parts a mismatching segment is bisected into. */
    static final long MAX_PARTS = 64;

    private SegmentPlanner() {
    }

    /** An inclusive range of integer keys. */
    record KeyRange(long lo, long hi) {
        /** Keys in the range, or {@link Long#MAX_VALUE} when that many do not fit a long. */
        long span() {
            return hi - lo + 1 <= 0 ? Long.MAX_VALUE : hi - lo + 1;
        }
    }

    /** What to do with one mismatching segment. */
    sealed interface Step {
        /** Checksum the segment again, cut into {@code parts}. */
        record Bisect(Bucketing parts) implements Step {
        }

        /** Compare the segment's rows one by one. */
        record Compare(KeyRange range) implements Step {
        }
    }

    /**
     * The key range covering both sides' {@code {min, max}} (null for an empty side), or null when both are empty.
     */
    static KeyRange range(long[] source, long[] target) {
        if (source == null && target == null) {
            return null;
        }
        long lo = source == null ? target[0] : target == null ? source[0] : Math.min(source[0], target[0]);
        long hi = source == null ? target[1] : target == null ? source[1] : Math.max(source[1], target[1]);
        return new KeyRange(lo, hi);
    }

    /** A side's row estimate, capped at the keys the range can hold; the whole span when the side has no estimate. */
    static long rows(long estimate, KeyRange range) {
        return estimate > 0 ? Math.min(estimate, range.span()) : range.span();
    }

    /** The first pass: {@code range} in segments of about {@code segmentRows} rows of the larger side, at most {@link #MAX_SEGMENTS}. */
    static Bucketing firstPass(KeyRange range, long sourceRows, long targetRows, long segmentRows) {
        long rows = Math.max(sourceRows, targetRows);
        return Bucketing.of(range.lo(), range.hi(), Math.min(MAX_SEGMENTS, Math.max(1, (rows + segmentRows - 1) / segmentRows)));
    }

    /**
     * The steps for the segments of {@code b} whose checksums differ, in segment order: a segment with more than
     * {@code segmentRows} rows on a side and more than one key is bisected when {@code canBisect} (in-database
     * checksums); every other mismatching segment is compared row by row. Equal segments need nothing.
     */
    static List<Step> mismatches(Bucketing b, SegmentChecksums.Checksums source, SegmentChecksums.Checksums target,
                                 boolean canBisect, long segmentRows) {
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < b.count(); i++) {
            if (source.same(target, i)) {
                continue;
            }
            long rows = Math.max(source.counts()[i], target.counts()[i]);
            long lo = b.segmentLo(i);
            long hi = b.segmentHi(i);
            if (canBisect && rows > segmentRows && hi != lo) {
                long parts = Math.min(MAX_PARTS, Math.max(2, (rows + segmentRows - 1) / segmentRows));
                steps.add(new Step.Bisect(Bucketing.of(lo, hi, parts)));
            } else {
                steps.add(new Step.Compare(new KeyRange(lo, hi)));
            }
        }
        return steps;
    }

    /**
     * The widest range one row comparison may span: {@link #MAX_COALESCED} first-pass segments, a span the databases
     * still read through the key's index (a range over most of a table makes PostgreSQL sort it instead).
     */
    static long coalesceSpan(Bucketing firstPass) {
        return firstPass.width() > Long.MAX_VALUE / MAX_COALESCED ? Long.MAX_VALUE : firstPass.width() * MAX_COALESCED;
    }

    /** Adjacent ranges become one (one query per side instead of many), spanning at most {@code maxSpan} keys; sorted by key. */
    static List<KeyRange> coalesce(List<KeyRange> ranges, long maxSpan) {
        List<KeyRange> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(KeyRange::lo));
        List<KeyRange> out = new ArrayList<>();
        for (KeyRange r : sorted) {
            KeyRange last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && last.hi() != Long.MAX_VALUE && last.hi() + 1 == r.lo() && r.hi() - last.lo() >= 0
                    && r.hi() - last.lo() < maxSpan) {
                out.set(out.size() - 1, new KeyRange(last.lo(), r.hi()));
            } else {
                out.add(r);
            }
        }
        return out;
    }
}
