package dev.tidemark.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.reconcile.SegmentPlanner.KeyRange;
import dev.tidemark.reconcile.SegmentPlanner.Step;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SegmentPlannerTest {

    @Test
    void rangeCoversBothSidesAndIsAbsentWhenBothAreEmpty() {
        assertThat(SegmentPlanner.range(null, null)).isNull();
        assertThat(SegmentPlanner.range(new long[] {1, 1_000_000}, new long[] {5, 999_000})).isEqualTo(new KeyRange(1, 1_000_000));
        assertThat(SegmentPlanner.range(new long[] {10, 20}, new long[] {-5, 15})).isEqualTo(new KeyRange(-5, 20));
        assertThat(SegmentPlanner.range(null, new long[] {3, 4})).isEqualTo(new KeyRange(3, 4));
        assertThat(SegmentPlanner.range(new long[] {3, 4}, null)).isEqualTo(new KeyRange(3, 4));
    }

    @Test
    void rowEstimateIsCappedByTheKeysTheRangeCanHold() {
        KeyRange r = new KeyRange(1, 100);
        assertThat(SegmentPlanner.rows(50, r)).isEqualTo(50);
        assertThat(SegmentPlanner.rows(5_000, r)).isEqualTo(100);
        assertThat(SegmentPlanner.rows(0, r)).isEqualTo(100); // no statistics: the whole span
        assertThat(SegmentPlanner.rows(-1, r)).isEqualTo(100);
        assertThat(new KeyRange(Long.MIN_VALUE, Long.MAX_VALUE).span()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void firstPassCutsTheRangeIntoSegmentsOfAboutSegmentRowsOfTheLargerSide() {
        Bucketing b = SegmentPlanner.firstPass(new KeyRange(1, 1_000_000), 100_000, 40_000, 10_000);
        assertThat(b.count()).isEqualTo(10);
        assertThat(b.width()).isEqualTo(100_000);
        assertThat(SegmentPlanner.firstPass(new KeyRange(1, 1_000_000), 3, 0, 10_000).count()).isEqualTo(1);
        assertThat(SegmentPlanner.firstPass(new KeyRange(0, Long.MAX_VALUE - 1), Long.MAX_VALUE, 0, 1).count())
                .isEqualTo(SegmentPlanner.MAX_SEGMENTS);
    }

    @Test
    void workedExampleFromTheJavadoc() {
        KeyRange range = SegmentPlanner.range(new long[] {1, 1_000_000}, new long[] {5, 999_000});
        Bucketing root = SegmentPlanner.firstPass(range, SegmentPlanner.rows(100_000, range), SegmentPlanner.rows(100_000, range), 10_000);
        assertThat(root.count()).isEqualTo(10);
        SegmentChecksums.Checksums s = checksums(10, 100_000);
        SegmentChecksums.Checksums t = checksums(10, 100_000);
        t.sums()[7] = 42;

        List<Step> inDatabase = SegmentPlanner.mismatches(root, s, t, true, 10_000);
        assertThat(inDatabase).hasSize(1);
        Bucketing parts = ((Step.Bisect) inDatabase.get(0)).parts();
        assertThat(parts.lo()).isEqualTo(700_001);
        assertThat(parts.hi()).isEqualTo(800_000);
        assertThat(parts.count()).isEqualTo(10);
        assertThat(parts.width()).isEqualTo(10_000);

        assertThat(SegmentPlanner.mismatches(root, s, t, false, 10_000))
                .containsExactly(new Step.Compare(new KeyRange(700_001, 800_000)));

        List<KeyRange> leaves = List.of(new KeyRange(730_001, 740_000), new KeyRange(720_001, 730_000));
        assertThat(SegmentPlanner.coalesce(leaves, SegmentPlanner.coalesceSpan(root)))
                .containsExactly(new KeyRange(720_001, 740_000));
    }

    @Test
    void equalSegmentsNeedNothingAndSmallOrSingleKeySegmentsAreComparedRowByRow() {
        Bucketing b = Bucketing.of(0, 99, 4); // 4 segments of 25 keys
        SegmentChecksums.Checksums s = new SegmentChecksums.Checksums(new long[] {25, 25, 25, 1}, new long[] {1, 2, 3, 4});
        SegmentChecksums.Checksums t = new SegmentChecksums.Checksums(new long[] {25, 24, 25, 1}, new long[] {1, 2, 3, 5});
        assertThat(SegmentPlanner.mismatches(b, s, s, true, 10)).isEmpty();
        // segment 1 has 25 rows > 10: bisected into ceil(25 / 10) = 3 parts; segment 3 differs in its hash sum
        List<Step> steps = SegmentPlanner.mismatches(b, s, t, true, 10);
        assertThat(steps).hasSize(2);
        assertThat(((Step.Bisect) steps.get(0)).parts()).isEqualTo(Bucketing.of(25, 49, 3));
        assertThat(steps.get(1)).isEqualTo(new Step.Compare(new KeyRange(75, 99)));
        assertThat(SegmentPlanner.mismatches(b, s, t, true, 100))
                .containsExactly(new Step.Compare(new KeyRange(25, 49)), new Step.Compare(new KeyRange(75, 99)));

        Bucketing single = Bucketing.of(7, 7, 1);
        SegmentChecksums.Checksums many = new SegmentChecksums.Checksums(new long[] {1_000}, new long[] {1});
        SegmentChecksums.Checksums other = new SegmentChecksums.Checksums(new long[] {1_000}, new long[] {2});
        assertThat(SegmentPlanner.mismatches(single, many, other, true, 10)).containsExactly(new Step.Compare(new KeyRange(7, 7)));
    }

    @Test
    void bisectionMakesAtLeastTwoAndAtMostSixtyFourParts() {
        Bucketing b = Bucketing.of(0, 9_999_999, 1);
        SegmentChecksums.Checksums s = new SegmentChecksums.Checksums(new long[] {10_000_000}, new long[] {1});
        SegmentChecksums.Checksums t = new SegmentChecksums.Checksums(new long[] {10_000_000}, new long[] {2});
        assertThat(((Step.Bisect) SegmentPlanner.mismatches(b, s, t, true, 10).get(0)).parts().count()).isEqualTo(64);
        SegmentChecksums.Checksums few = new SegmentChecksums.Checksums(new long[] {11}, new long[] {1});
        assertThat(((Step.Bisect) SegmentPlanner.mismatches(b, few, t, true, 10_000_000 - 1).get(0)).parts().count()).isEqualTo(2);
    }

    @Test
    void coalesceJoinsOnlyAdjacentRangesWithinTheSpanAndSortsThem() {
        List<KeyRange> ranges = new ArrayList<>(List.of(new KeyRange(21, 30), new KeyRange(1, 10), new KeyRange(11, 20),
                new KeyRange(41, 50)));
        assertThat(SegmentPlanner.coalesce(ranges, 100)).containsExactly(new KeyRange(1, 30), new KeyRange(41, 50));
        // a joined range spans at most maxSpan keys: [1, 20] has 20
        assertThat(SegmentPlanner.coalesce(ranges, 19)).containsExactly(new KeyRange(1, 10), new KeyRange(11, 20),
                new KeyRange(21, 30), new KeyRange(41, 50));
        assertThat(SegmentPlanner.coalesce(ranges, 20)).containsExactly(new KeyRange(1, 20), new KeyRange(21, 30),
                new KeyRange(41, 50));
        assertThat(ranges.get(0)).isEqualTo(new KeyRange(21, 30)); // the input is left as it was
        assertThat(SegmentPlanner.coalesce(List.of(), 10)).isEmpty();
    }

    @Test
    void coalesceNeverWrapsAroundTheTopOfTheLongRange() {
        List<KeyRange> ranges = List.of(new KeyRange(Long.MAX_VALUE - 9, Long.MAX_VALUE), new KeyRange(Long.MIN_VALUE, Long.MIN_VALUE + 9));
        assertThat(SegmentPlanner.coalesce(ranges, Long.MAX_VALUE)).containsExactly(new KeyRange(Long.MIN_VALUE, Long.MIN_VALUE + 9),
                new KeyRange(Long.MAX_VALUE - 9, Long.MAX_VALUE));
        List<KeyRange> halves = List.of(new KeyRange(Long.MIN_VALUE, -1), new KeyRange(0, Long.MAX_VALUE));
        assertThat(SegmentPlanner.coalesce(halves, Long.MAX_VALUE)).hasSize(2); // the joined span would not fit a long
    }

    @Test
    void coalesceSpanIsSixteenFirstPassSegmentsWithoutOverflowing() {
        assertThat(SegmentPlanner.coalesceSpan(Bucketing.of(1, 1_000_000, 100))).isEqualTo(160_000);
        assertThat(SegmentPlanner.coalesceSpan(Bucketing.of(0, Long.MAX_VALUE - 1, 1))).isEqualTo(Long.MAX_VALUE);
    }

    private static SegmentChecksums.Checksums checksums(int segments, long rowsEach) {
        long[] counts = new long[segments];
        java.util.Arrays.fill(counts, rowsEach);
        return new SegmentChecksums.Checksums(counts, new long[segments]);
    }
}
