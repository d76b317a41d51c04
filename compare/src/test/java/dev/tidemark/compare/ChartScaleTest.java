package dev.tidemark.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ChartScaleTest {
    @Test
    void smallCountsNextToLargeOnesStayReadable() {
        ChartScale s = new ChartScale(412, 180);
        assertThat(s.top()).isEqualTo(1000);
        assertThat(s.height(0)).isZero();
        assertThat(s.height(412)).isEqualTo(157);
        assertThat(s.height(3)).as("3 next to 412: a fifth of the plot, not 1 pixel").isEqualTo(36);
        assertThat(s.height(1)).isEqualTo(18);
        assertThat(s.height(1000)).isEqualTo(180);
        assertThat(s.ticks()).containsExactly(0L, 1L, 10L, 100L, 1000L);
    }

    @Test
    void equalStepsPerPowerOfTenAndAMinimumBar() {
        ChartScale s = new ChartScale(5, 180);
        assertThat(s.top()).isEqualTo(10);
        assertThat(s.ticks()).containsExactly(0L, 1L, 10L);
        assertThat(s.height(10)).isEqualTo(180);
        assertThat(new ChartScale(1_000_000, 10).height(1)).isEqualTo(ChartScale.MIN_BAR);
        assertThat(new ChartScale(0, 100).height(0)).isZero();
        assertThatThrownBy(() -> new ChartScale(-1, 100)).isInstanceOf(IllegalArgumentException.class);
    }
}
