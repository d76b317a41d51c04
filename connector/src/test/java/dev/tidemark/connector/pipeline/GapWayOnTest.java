package dev.tidemark.connector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.PipelineConfigParser;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Why the repair branch of the gap lines ({@code StoredOffsetsCheck}, the sink's {@code GapAdvice}, {@code status})
 * is not reached from a pipeline: the topics those lines look at are the pipeline's own ({@link PipelineConfig#topics()}:
 * the stored offsets are filtered to them, the sink subscribes to them), each the topic of one captured table, also
 * under {@code kafka.topics} and {@code target.tables} (two tables on one topic are refused by the parser). So
 * {@link GapWayOn#tables} always finds the tables, and the way on is their one-table snapshot.
 */
class GapWayOnTest {
    private static final String YAML = String.join("\n",
            "name: shop",
            "source:",
            "  url: jdbc:postgresql://127.0.0.1:5432/db",
            "  user: u",
            "  tables: [public.orders, public.items, sales.orders]",
            "kafka:",
            "  bootstrapServers: 127.0.0.1:9092",
            "  topicPrefix: shop",
            "  topics: {public.items: line_items, sales.orders: sales_orders}",
            "target:",
            "  url: 'jdbc:sqlite:/tmp/t.db'",
            "  tables: {sales.orders: sales_orders}",
            "");

    @Test
    void everyTopicOfAPipelineCarriesOneOfItsCapturedTables() {
        PipelineConfig config = PipelineConfigParser.parse(YAML, "p.yaml", Path.of("/tmp"), Map.<String, String>of()::get);
        Map<String, TableId> byTopic = GapWayOn.tablesByTopic(config);
        assertThat(byTopic.keySet()).containsExactlyInAnyOrderElementsOf(config.topics());
        for (String topic : config.topics()) {
            assertThat(GapWayOn.tables(List.of(topic), byTopic)).as(topic).isPresent();
        }
        assertThat(GapWayOn.text("run", "p.yaml", GapWayOn.tables(config.topics(), byTopic)))
                .contains("`tidemark snapshot --config p.yaml --table public.items --table sales.orders --table public.orders`")
                .doesNotContain("reconcile");
    }
}
