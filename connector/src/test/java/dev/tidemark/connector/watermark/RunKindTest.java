package dev.tidemark.connector.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunKindTest {

    @Test
    void labels_asReportedAndAsRecorded() {
        assertThat(Arrays.stream(RunKind.values()).map(RunKind::label))
                .containsExactly("initial", "resumed", "unchanged", "incremental", "window");
        assertThat(Arrays.stream(RunKind.values()).map(RunKind::historyLabel))
                .as("an unchanged run is an incremental run of zero rows to the anomaly check")
                .containsExactly("initial", "resumed", "incremental", "incremental", "window");
        assertThat(Arrays.stream(RunKind.values()).filter(RunKind::comparedWithHistory))
                .containsExactly(RunKind.UNCHANGED, RunKind.INCREMENTAL);
    }

    @Test
    void runResult_reportsTheLabels() {
        RunResult r = new RunResult("s.t", RunKind.UNCHANGED, RunStatus.STOPPED, "(a, b]", 0, 0, 0, null, 0, 0, Duration.ZERO,
                null, List.of());
        assertThat(r.mode()).isEqualTo("unchanged");
        assertThat(r.status()).isEqualTo("stopped");
        assertThat(r.complete()).isFalse();
        assertThat(r.summary()).startsWith("s.t: unchanged window (a, b] → stopped: 0 rows");
    }
}
