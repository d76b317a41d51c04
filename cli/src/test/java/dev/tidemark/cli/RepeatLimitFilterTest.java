package dev.tidemark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import org.junit.jupiter.api.Test;

class RepeatLimitFilterTest {
    private static RepeatLimitFilter filter() {
        RepeatLimitFilter f = new RepeatLimitFilter();
        f.setLogger("io.debezium.metrics.stats.MeasurementCollector");
        f.setIntervalSeconds(60);
        return f;
    }

    @Test
    void theFirstLinePassesThenOnePerInterval() {
        RepeatLimitFilter f = filter();
        assertThat(f.admit(1_000)).isTrue();
        assertThat(f.admit(1_001)).isFalse();
        assertThat(f.admit(60_999)).isFalse();
        assertThat(f.admit(61_000)).isTrue();
        assertThat(f.admit(61_500)).isFalse();
    }

    @Test
    void onlyTheNamedLoggersWarningsAreLimited() {
        LoggerContext context = new LoggerContext();
        Logger collector = context.getLogger("io.debezium.metrics.stats.MeasurementCollector");
        Logger other = context.getLogger("dev.tidemark.connector.debezium.DebeziumChangeSource");
        RepeatLimitFilter f = filter();
        context.addTurboFilter(f); // installed as logback.xml installs it: deciding must not call the filters again
        f.start();
        assertThat(collector.isEnabledFor(Level.WARN)).isTrue();
        assertThat(collector.isEnabledFor(Level.WARN)).as("the second line within the minute").isFalse();
        assertThat(f.decide(null, collector, Level.WARN, "queue is full", null, null)).isEqualTo(FilterReply.DENY);
        assertThat(f.decide(null, collector, Level.ERROR, "failed", null, null)).isEqualTo(FilterReply.NEUTRAL);
        for (int i = 0; i < 3; i++) {
            assertThat(f.decide(null, other, Level.WARN, "same line", null, null)).isEqualTo(FilterReply.NEUTRAL);
        }
    }
}
