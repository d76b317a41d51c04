package dev.tidemark.connector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Stored offsets past the end of the pipeline's topics are refused before anything is created, naming the way on. */
class StoredOffsetsCheckTest {
    @Test
    void offsetsWithinTheirTopicsPass() {
        assertThat(StoredOffsetsCheck.refusal(Map.of("p.public.t", Map.of(0, 10L, 1, 0L)), Map.of("p.public.t", Map.of(0, 10L, 1, 5L)),
                "run", "p.yaml", Map.of())).isEmpty();
    }

    @Test
    void aTopicOfNoCapturedTableKeepsTheRepairAsTheWayOn() {
        var refusal = StoredOffsetsCheck.refusal(Map.of("p.public.t", Map.of(0, 1812L, 1, 3L), "p.public.u", Map.of(0, 7L)),
                Map.of("p.public.t", Map.of(0, 42L, 1, 3L)), "run", "p.yaml", Map.of("p.public.t", new TableId("public", "t")));
        assertThat(refusal).isPresent();
        assertThat(refusal.get()).contains("topic p.public.t partition 0: stored offset 1812 is past the end offset 42")
                .contains("topic p.public.u partition 0: stored offset 7 is past the end offset 0")
                .doesNotContain("partition 1:").contains("Nothing was created or changed")
                .contains("`tidemark run --config p.yaml --accept-retention-gap`")
                .contains("`tidemark reconcile --config p.yaml --repair --apply`").doesNotContain("\n");
    }

    @Test
    void whereEveryTopicPastTheEndIsACapturedTablesTheWayOnIsTheFlagThenTheOneTableReSnapshot() {
        var refusal = StoredOffsetsCheck.refusal(Map.of("p.public.t", Map.of(0, 1812L), "p.public.u", Map.of(0, 7L), "p.public.v", Map.of(0, 1L)),
                Map.of("p.public.t", Map.of(0, 42L), "p.public.v", Map.of(0, 5L)), "sink", "p.yaml",
                Map.of("p.public.t", new TableId("public", "t"), "p.public.u", new TableId("public", "u"), "p.public.v", new TableId("public", "v")));
        assertThat(refusal.get()).contains("`tidemark sink --config p.yaml --accept-retention-gap`")
                .contains("`tidemark snapshot --config p.yaml --table public.t --table public.u`")
                .doesNotContain("reconcile").doesNotContain("public.v`").doesNotContain("\n");
    }
}
