package dev.tidemark.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tidemark.bench.LatencyStats.LagSample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyStatsTest {

    @Test
    void percentilesAreNearestRankOnTheSortedValues() {
        long[] v = new long[1000];
        for (int i = 0; i < v.length; i++) {
            v[i] = 1000 - i; // 1000 … 1, unsorted
        }
        assertThat(LatencyStats.percentile(v, 50)).isEqualTo(500);
        assertThat(LatencyStats.percentile(v, 99)).isEqualTo(990);
        assertThat(LatencyStats.percentile(v, 99.9)).isEqualTo(999);
        assertThat(LatencyStats.percentile(v, 100)).isEqualTo(1000);
        assertThat(LatencyStats.percentile(new long[] {7}, 99.9)).isEqualTo(7);
    }

    @Test
    void aSingleOutlierShowsOnlyInTheHighestPercentiles() {
        long[] v = new long[10_000];
        java.util.Arrays.fill(v, 10);
        v[1234] = 5000;
        assertThat(LatencyStats.percentile(v.clone(), 99.9)).isEqualTo(10);
        assertThat(LatencyStats.percentile(v.clone(), 100)).isEqualTo(5000);
    }

    @Test
    void noValuesOrABadPercentileAreRefused() {
        assertThatThrownBy(() -> LatencyStats.percentile(new long[0], 50)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LatencyStats.percentile(new long[] {1}, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LatencyStats.percentile(new long[] {1}, 101)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aGrowingLagHasAPositiveSlopeInChangesPerSecond() {
        List<LagSample> s = new ArrayList<>();
        for (int t = 0; t < 60; t++) {
            s.add(new LagSample(t, 100 + 250L * t + (t % 2 == 0 ? 5 : -5)));
        }
        assertThat(LatencyStats.lagSlope(s)).isCloseTo(250, within(1.0));
    }

    @Test
    void aSteadyOrShrinkingLagHasASlopeAtMostZero() {
        List<LagSample> steady = new ArrayList<>();
        List<LagSample> shrinking = new ArrayList<>();
        for (int t = 0; t < 60; t++) {
            steady.add(new LagSample(t, t % 3 == 0 ? 12 : 8));
            shrinking.add(new LagSample(t, 6000 - 100L * t));
        }
        assertThat(LatencyStats.lagSlope(steady)).isCloseTo(0, within(0.1));
        assertThat(LatencyStats.lagSlope(shrinking)).isCloseTo(-100, within(1e-9));
        assertThat(LatencyStats.lagSlope(List.of(new LagSample(3, 10)))).isZero();
        assertThat(LatencyStats.lagSlope(List.of(new LagSample(3, 10), new LagSample(3, 20)))).isZero();
    }
}
