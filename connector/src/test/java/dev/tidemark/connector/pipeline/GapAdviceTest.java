package dev.tidemark.connector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.sink.kafka.StartPositions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The sink's own refusal after retention deleted records it never applied (and its warning once the gap is accepted)
 * names the pipeline's way on: the flag with the command that ran the sink, then the table's re-snapshot, with the
 * pipeline file, never the repair of the whole target or a placeholder for the file.
 */
class GapAdviceTest {
    static final TableId ORDERS = new TableId("public", "orders");
    static final PipelineConfig CONFIG = new PipelineConfig("shop",
            new SourceConfig("jdbc:postgresql://127.0.0.1:5432/db", "u", Secret.empty(), "slot_shop", "pub_shop", List.of(ORDERS), true,
                    Duration.ofMillis(10)),
            new KafkaConfig("127.0.0.1:9092", "shop", 2, (short) 1, Map.of()),
            new TargetConfig("jdbc:sqlite:/tmp/t.db", null, Secret.empty(), 500, "__tidemark_position", false), Path.of("/tmp/state"));
    static final TopicPartition P0 = new TopicPartition(CONFIG.topicFor(ORDERS), 0);

    private static StartPositions.Decision belowTheLogStart(boolean accept, String command) {
        var in = new StartPositions.Inputs(List.of(P0), Map.of(P0, 400L), Map.of(P0, 450L), Map.of(P0, 1000L), new ReplayFrom.Stored(),
                Set.of(), Map.of());
        return StartPositions.decide(in, accept, false, GapWayOn.advice(CONFIG, command, "/etc/shop.yaml"));
    }

    @Test
    void theSinksRetentionRefusalNamesTheFlagAndTheTablesSnapshot() {
        assertThat(((StartPositions.Refuse) belowTheLogStart(false, "sink")).reason())
                .contains("stored offset 400 is below the earliest offset 450", "Nothing was skipped",
                        "`tidemark sink --config /etc/shop.yaml --accept-retention-gap`",
                        "`tidemark snapshot --config /etc/shop.yaml --table public.orders`")
                .doesNotContain("reconcile").doesNotContain("<pipeline file>").doesNotContain("\n");
        assertThat(((StartPositions.Refuse) belowTheLogStart(false, "run")).reason())
                .contains("`tidemark run --config /etc/shop.yaml --accept-retention-gap`");
    }

    @Test
    void theAcceptedGapsWarningNamesTheTablesSnapshot() {
        assertThat(((StartPositions.Seek) belowTheLogStart(true, "sink")).warnings()).singleElement().asString()
                .contains("accepted retention gap", "`tidemark snapshot --config /etc/shop.yaml --table public.orders`")
                .doesNotContain("reconcile").doesNotContain("<pipeline file>");
    }

    @Test
    void aTopicOfNoCapturedTableKeepsTheRepair() {
        var advice = GapWayOn.advice(CONFIG, "sink", "/etc/shop.yaml");
        assertThat(advice.wayOn(List.of("elsewhere.t"))).contains("`tidemark sink --config /etc/shop.yaml --accept-retention-gap`",
                "`tidemark reconcile --config /etc/shop.yaml --repair --apply`");
        assertThat(advice.rebuild(List.of("elsewhere.t"))).contains("`tidemark reconcile --config /etc/shop.yaml --repair --apply`");
    }
}
