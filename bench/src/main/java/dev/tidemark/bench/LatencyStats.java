package dev.tidemark.bench;

import java.util.Arrays;
import java.util.List;

/**
 * The pure arithmetic of {@code bench/latency.sh}: percentiles of commit → visible latencies (nearest rank on the sorted
 * values) and the least-squares slope of lag samples over time.
 */
final class LatencyStats {
    private LatencyStats() {
    }

    /** One lag sample: seconds since the measured window opened, and changes committed but not yet visible. */
    record LagSample(double seconds, long lag) {
    }

    /**
     * The {@code p}-th percentile (0 &lt; p ≤ 100) of {@code values} by nearest rank: the smallest value such that at
     * least p % of the values are ≤ it. {@code values} is sorted in place.
     *
     * @throws IllegalArgumentException when there are no values or p is out of range
     */
    static long percentile(long[] values, double p) {
        if (values.length == 0 || !(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile " + p + " of " + values.length + " values");
        }
        Arrays.sort(values);
        int rank = (int) Math.ceil(p * values.length / 100.0 - 1e-9); // 99.9 % of 1,000 is rank 999, not 1,000 by rounding
        return values[Math.max(0, rank - 1)];
    }

    /**
     * Least-squares slope of lag against time, in changes per second: ≤ 0 means the pipeline kept up over the window
     * (the backlog did not grow). Zero for fewer than two samples or samples all at one time.
     */
    static double lagSlope(List<LagSample> samples) {
        int n = samples.size();
        if (n < 2) {
            return 0;
        }
        double sx = 0;
        double sy = 0;
        for (LagSample s : samples) {
            sx += s.seconds();
            sy += s.lag();
        }
        double mx = sx / n;
        double my = sy / n;
        double num = 0;
        double den = 0;
        for (LagSample s : samples) {
            num += (s.seconds() - mx) * (s.lag() - my);
            den += (s.seconds() - mx) * (s.seconds() - mx);
        }
        return den == 0 ? 0 : num / den;
    }
}
