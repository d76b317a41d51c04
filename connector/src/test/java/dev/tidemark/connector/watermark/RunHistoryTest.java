package dev.tidemark.connector.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RunHistoryTest {

    @Test
    void aSuddenZeroAfterNonZeroRunsWarns() {
        assertThat(RunHistory.anomaly("t", 0, List.of(12L, 9L, 15L, 0L))).hasValueSatisfying(w ->
                assertThat(w).contains("copied 0 rows after 3 runs").contains("still maintained"));
    }

    @Test
    void aZeroAmongQuietRunsIsNormal() {
        assertThat(RunHistory.anomaly("t", 0, List.of(12L, 0L, 15L))).isEmpty();
        assertThat(RunHistory.anomaly("t", 0, List.of(12L, 9L))).as("too little history").isEmpty();
    }

    @Test
    void aSpikeOverTenTimesTheMedianWarns() {
        assertThat(RunHistory.anomaly("t", 1001, List.of(100L, 90L, 120L, 80L))).hasValueSatisfying(w ->
                assertThat(w).contains("1001 rows, over 10× the recent median of 100"));
        assertThat(RunHistory.anomaly("t", 999, List.of(100L, 90L, 120L, 80L))).isEmpty();
        assertThat(RunHistory.anomaly("t", 50, List.of(0L, 0L, 0L))).as("no median to compare with").isEmpty();
    }
}
