package dev.tidemark.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BucketingTest {

    @Test
    void workedExampleFromTheJavadoc() {
        Bucketing b = Bucketing.of(1, 1_000_000, 100);
        assertThat(b.count()).isEqualTo(100);
        assertThat(b.width()).isEqualTo(10_000);
        assertThat(b.bucket(1)).isZero();
        assertThat(b.bucket(10_000)).isZero();
        assertThat(b.bucket(10_001)).isEqualTo(1);
        assertThat(b.bucket(1_000_000)).isEqualTo(99);
        assertThat(b.segmentLo(1)).isEqualTo(10_001);
        assertThat(b.segmentHi(99)).isEqualTo(1_000_000);
    }

    @Test
    void segmentsCoverTheRangeWithoutGapsOrOverlaps() {
        for (long[] c : new long[][] {{-5, 17, 4}, {0, 0, 10}, {1, 40, 10}, {1, 41, 10}, {100, 101, 64}, {-1_000_000_007L, 3, 7}}) {
            Bucketing b = Bucketing.of(c[0], c[1], c[2]);
            assertThat(b.count()).isLessThanOrEqualTo((int) c[2]);
            long next = c[0];
            for (int i = 0; i < b.count(); i++) {
                assertThat(b.segmentLo(i)).isEqualTo(next);
                assertThat(b.segmentHi(i)).isGreaterThanOrEqualTo(b.segmentLo(i));
                for (long k = b.segmentLo(i); k <= b.segmentHi(i) && k - b.segmentLo(i) < 3; k++) {
                    assertThat(b.bucket(k)).isEqualTo(i);
                }
                assertThat(b.bucket(b.segmentHi(i))).isEqualTo(i);
                next = b.segmentHi(i) + 1;
            }
            assertThat(next - 1).isEqualTo(c[1]);
        }
    }

    @Test
    void theWholeLongRangeSplits() {
        Bucketing b = Bucketing.of(Long.MIN_VALUE, Long.MAX_VALUE, 1);
        assertThat(b.count()).isEqualTo(2);
        assertThat(b.bucket(Long.MIN_VALUE)).isZero();
        assertThat(b.bucket(-1)).isZero();
        assertThat(b.bucket(0)).isEqualTo(1);
        assertThat(b.bucket(Long.MAX_VALUE)).isEqualTo(1);
        assertThat(b.segmentHi(1)).isEqualTo(Long.MAX_VALUE);
        Bucketing wide = Bucketing.of(Long.MIN_VALUE, Long.MAX_VALUE, 1000);
        assertThat(wide.bucket(Long.MAX_VALUE)).isEqualTo(wide.count() - 1);
        assertThat(wide.segmentHi(wide.count() - 1)).isEqualTo(Long.MAX_VALUE);
    }
}
