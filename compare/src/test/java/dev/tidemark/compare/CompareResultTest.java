package dev.tidemark.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CompareResultTest {
    private static final Difference MISSING = CauseAttribution.explainCdc("7", Difference.Kind.MISSING);
    private static final Difference SURPLUS = CauseAttribution.explainCdc("8", Difference.Kind.SURPLUS);

    @Test
    void aTargetHoldsEachDifferenceInTheListOfItsKind() {
        assertThatThrownBy(() -> new CompareResult.Target("cdc", "cdc.db", 2, 2, List.of(SURPLUS), List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a surplus difference (key 8) among the missing keys of target cdc");
    }

    @Test
    void aTargetIsEqualWhenNoKeyDiffersWhateverTheCounts() {
        assertThat(new CompareResult.Target("cdc", "cdc.db", 2, 3, List.of(), List.of(), List.of()).equal()).isTrue();
        assertThat(new CompareResult.Target("cdc", "cdc.db", 2, 2, List.of(MISSING), List.of(SURPLUS), List.of()).equal()).isFalse();
    }
}
