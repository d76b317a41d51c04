package dev.tidemark.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Marker;

/**
 * Bounds a library logger that repeats one WARN line per event under load (Debezium's {@code MeasurementCollector}
 * writes one per lag sample it drops while its queue is full): of that logger's lines at {@code WARN} and below, the
 * first passes, then at most one per {@code intervalSeconds}. Every other logger, and that logger's {@code ERROR}
 * lines, pass untouched. Configured in {@code logback.xml}:
 * {@code <turboFilter class="dev.tidemark.cli.RepeatLimitFilter"><logger>…</logger><intervalSeconds>60</intervalSeconds></turboFilter>}.
 */
public final class RepeatLimitFilter extends TurboFilter {
    private String logger;
    private long intervalMillis = 60_000;
    private final AtomicLong lastPassed = new AtomicLong(Long.MIN_VALUE);

    public void setLogger(String logger) {
        this.logger = logger;
    }

    public void setIntervalSeconds(long seconds) {
        this.intervalMillis = seconds * 1000;
    }

    @Override
    public FilterReply decide(Marker marker, Logger from, Level level, String format, Object[] params, Throwable t) {
        if (level == null || from == null || !from.getName().equals(logger) || level.isGreaterOrEqual(Level.ERROR)) {
            return FilterReply.NEUTRAL;
        }
        if (!level.isGreaterOrEqual(from.getEffectiveLevel())) {
            return FilterReply.NEUTRAL; // the logger's own level drops it; nothing to count (isEnabledFor would recurse here)
        }
        return admit(System.currentTimeMillis()) ? FilterReply.NEUTRAL : FilterReply.DENY;
    }

    /** True for the first line and for the first one {@code intervalMillis} or more after the last that passed. */
    boolean admit(long nowMillis) {
        long last = lastPassed.get();
        while (last == Long.MIN_VALUE || nowMillis - last >= intervalMillis) {
            if (lastPassed.compareAndSet(last, nowMillis)) {
                return true;
            }
            last = lastPassed.get();
        }
        return false;
    }
}
