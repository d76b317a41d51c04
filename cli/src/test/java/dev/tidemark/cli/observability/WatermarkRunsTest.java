package dev.tidemark.cli.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WatermarkRunsTest {
    @Test
    void summarizesRunsPerTableWithTheNewestRunsRows() {
        List<WatermarkRuns.Run> newestFirst = List.of(
                new WatermarkRuns.Run("public.a", "t3", "incremental", "done", 3),
                new WatermarkRuns.Run("public.b", "t2", "initial", "done", 40),
                new WatermarkRuns.Run("public.a", "t1", "initial", "done", 412));
        assertThat(WatermarkRuns.summarize(newestFirst)).containsExactly(
                new WatermarkRuns.Summary("public.a", 2, 3), new WatermarkRuns.Summary("public.b", 1, 40));
    }
}
