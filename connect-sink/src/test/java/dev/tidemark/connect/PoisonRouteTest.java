package dev.tidemark.connect;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PoisonRouteTest {

    @Test
    void deadLettersNeedToleranceAllATopicAndAReporter() {
        assertThat(PoisonRoute.configured("all", "dlq")).isEqualTo(PoisonRoute.DEAD_LETTER);
        assertThat(PoisonRoute.configured(" ALL ", "dlq")).isEqualTo(PoisonRoute.DEAD_LETTER);
        assertThat(PoisonRoute.configured("all", " ")).isEqualTo(PoisonRoute.STOP);
        assertThat(PoisonRoute.configured(null, "dlq")).isEqualTo(PoisonRoute.STOP);
        assertThat(PoisonRoute.configured("none", "dlq")).isEqualTo(PoisonRoute.STOP);
        assertThat(PoisonRoute.DEAD_LETTER.given(true)).isEqualTo(PoisonRoute.DEAD_LETTER);
        assertThat(PoisonRoute.DEAD_LETTER.given(false)).isEqualTo(PoisonRoute.STOP);
        assertThat(PoisonRoute.STOP.given(true)).isEqualTo(PoisonRoute.STOP);
    }
}
