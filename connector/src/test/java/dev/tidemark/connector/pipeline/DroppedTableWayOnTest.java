package dev.tidemark.connector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.sink.jdbc.DroppedTableAdvice;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A target table the sink wrote, dropped while the pipeline runs: the stop line names the pipeline file and the
 * one-table snapshot of the captured table that fills it, then the start of the command that ran the sink; never a
 * replay from the earliest offset (no complete history after a gap) or a placeholder for the file.
 */
class DroppedTableWayOnTest {
    @Test
    void runNamesTheTablesSnapshotThenTheRun() {
        String wayOn = DroppedTableWayOn.advice(GapAdviceTest.CONFIG, "run", "/etc/shop.yaml").wayOn("orders");
        assertThat(commands(wayOn)).containsExactly("snapshot --config /etc/shop.yaml --table public.orders", "run --config /etc/shop.yaml");
        assertThat(wayOn).doesNotContain("--replay-from", "reconcile", "--config F", "\n");
    }

    @Test
    void sinkAloneNamesTheSnapshotWithCaptureStoppedThenTheSinkBeforeCapture() {
        String wayOn = DroppedTableWayOn.advice(GapAdviceTest.CONFIG, "sink", "/etc/shop.yaml").wayOn("orders");
        assertThat(wayOn).contains("with the pipeline's capture stopped");
        assertThat(commands(wayOn)).containsExactly("snapshot --config /etc/shop.yaml --table public.orders", "sink --config /etc/shop.yaml",
                "capture --config /etc/shop.yaml");
        assertThat(wayOn).doesNotContain("--replay-from", "reconcile");
    }

    @Test
    void aTargetTableNoCapturedTableFillsGetsTheSinksOwnAdvice() {
        assertThat(DroppedTableWayOn.advice(GapAdviceTest.CONFIG, "run", "/etc/shop.yaml").wayOn("other"))
                .isEqualTo(DroppedTableAdvice.RESTORE.wayOn("other")).doesNotContain("`");
    }

    private static List<String> commands(String line) {
        return java.util.regex.Pattern.compile("`tidemark ([^`]*)`").matcher(line).results().map(m -> m.group(1)).toList();
    }
}
