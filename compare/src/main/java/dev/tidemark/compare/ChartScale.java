package dev.tidemark.compare;

import java.util.ArrayList;
import java.util.List;

/**
 * Pure: the vertical scale of the report's bar charts. Counts are drawn on a log-like scale, height proportional to
 * {@code log10(1 + v)}, up to the next power of ten at or above the largest value, so the runs that matter (0 and 3
 * rows next to 412) stay readable: 0 has no bar, 1 already a visible one, and each power of ten is one equal step.
 * The axis is labelled with {@link #ticks()} (0, 1, 10, 100, …) so the scale is never mistaken for a linear one.
 *
 * @param max        the largest value drawn (at least 0)
 * @param plotHeight the height in pixels of the plot area
 */
record ChartScale(long max, int plotHeight) {
    /** The smallest height of a bar for a value above 0, in pixels. */
    static final int MIN_BAR = 3;

    ChartScale {
        if (max < 0 || plotHeight <= 0) {
            throw new IllegalArgumentException("max " + max + " and plot height " + plotHeight + " must be positive");
        }
    }

    /** The value at the top of the axis: the next power of ten at or above {@code max} (10 at least). */
    long top() {
        long t = 10;
        while (t < max && t <= Long.MAX_VALUE / 10) {
            t *= 10;
        }
        return t;
    }

    /** The height in pixels of a bar for {@code v}: 0 for 0, at least {@link #MIN_BAR} for anything above. */
    int height(long v) {
        if (v <= 0) {
            return 0;
        }
        int h = (int) Math.round(plotHeight * Math.log10(1 + (double) v) / Math.log10(1 + (double) top()));
        return Math.max(MIN_BAR, Math.min(plotHeight, h));
    }

    /** The labelled values of the axis: 0, 1, 10, 100, … up to {@link #top()}. */
    List<Long> ticks() {
        List<Long> out = new ArrayList<>(List.of(0L));
        for (long t = 1; t <= top(); t *= 10) {
            out.add(t);
        }
        return out;
    }
}
