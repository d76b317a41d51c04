package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
    @Test
    void parsesHumanAndIsoDurations() {
        assertThat(Durations.parse("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(Durations.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("2w")).isEqualTo(Duration.ofDays(14));
        assertThat(Durations.parse("PT5S")).isEqualTo(Duration.ofSeconds(5));
        assertThat(Durations.parse("0")).isZero();
    }

    @Test
    void rejectsAnythingElseNamingTheValue() {
        assertThatThrownBy(() -> Durations.parse("soon")).hasMessageContaining("'soon' is not a duration");
        assertThatThrownBy(() -> Durations.parse("5 s")).hasMessageContaining("'5 s'");
        assertThatThrownBy(() -> Durations.parse("1d2")).hasMessageContaining("'1d2'");
    }

    @Test
    void formatsCompactly() {
        assertThat(Durations.format(Duration.ofDays(204))).isEqualTo("204d");
        assertThat(Durations.format(Duration.ofMinutes(90))).isEqualTo("1h30m");
        assertThat(Durations.format(Duration.ofMillis(250))).isEqualTo("250ms");
        assertThat(Durations.format(Duration.ofNanos(1000))).isEqualTo("1us");
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
    }
}
