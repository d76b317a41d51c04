package dev.tidemark.bench;

import java.util.Locale;

/**
 * A sink contender's progress: a line every 2 s and the measured interval, which starts at the first batch committed
 * to the target (whose events are not counted) and ends at {@link #done()}; {@link #wallSeconds()} counts from
 * construction. Used by one thread.
 */
final class ContenderProgress {
    private final String name;
    private final long total;
    private final long start = System.nanoTime();
    private long first = -1;
    private long firstEvents;
    private long events;
    private long end = -1;
    private long lastPrint = System.nanoTime();

    ContenderProgress(String name, long total) {
        this.name = name;
        this.total = total;
    }

    void observe(long applied) {
        long now = System.nanoTime();
        if (first < 0 && applied > 0) {
            first = now;
            firstEvents = applied;
        }
        events = applied;
        if (now - lastPrint >= 2_000_000_000L) {
            lastPrint = now;
            double s = first < 0 ? 0 : (now - first) / 1e9;
            System.out.printf(Locale.ROOT, "    %-24s %,12d / %,d events  %,10.0f events/s%n", name, applied, total,
                    s > 0 ? (applied - firstEvents) / s : 0.0);
        }
    }

    void done() {
        end = System.nanoTime();
    }

    double seconds() {
        return (end - first) / 1e9;
    }

    double eventsPerSecond() {
        return (events - firstEvents) / seconds();
    }

    double wallSeconds() {
        return (end - start) / 1e9;
    }
}
