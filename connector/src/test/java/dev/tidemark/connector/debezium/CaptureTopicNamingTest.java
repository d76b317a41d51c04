package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Debezium names each table's topic by Tidemark's rule; its lag statistics (read by nothing) are off. */
class CaptureTopicNamingTest {
    private static final TableId ODD = new TableId("public", "Order Items");
    private static final TableId SALES = new TableId("sales", "orders");

    private static PipelineConfig config() {
        return new PipelineConfig("p",
                new SourceConfig("jdbc:postgresql://h/db", "u", Secret.empty(), "s", "pub", List.of(ODD, SALES), true, Duration.ofMillis(10)),
                new KafkaConfig("k:9092", "shop", 1, (short) 1, Map.of(), Map.of(SALES, "sales-orders")),
                new TargetConfig("jdbc:sqlite:t.db", null, Secret.empty(), 10, "__tidemark_position", false), Path.of("state"));
    }

    @Test
    void debeziumsTopicForEachTableIsTheOneTidemarkCreates() {
        PipelineConfig config = config();
        Properties p = new DebeziumChangeSource(config).engineProperties();
        assertThat(p.getProperty("topic.naming.strategy")).isEqualTo(TidemarkTopicNaming.class.getName());
        TidemarkTopicNaming naming = new TidemarkTopicNaming(p);
        naming.configure(p);
        assertThat(naming.dataChangeTopic(new io.debezium.relational.TableId("db", "public", "Order Items")))
                .isEqualTo(config.topicFor(ODD)).isEqualTo("shop.public.Order-20Items");
        assertThat(naming.dataChangeTopic(new io.debezium.relational.TableId("db", "sales", "orders")))
                .isEqualTo(config.topicFor(SALES)).isEqualTo("sales-orders");
        assertThat(naming.dataChangeTopic(new io.debezium.relational.TableId("db", "public", "orders"))).isEqualTo("shop.public.orders");
        assertThat(naming.recordSchemaPrefix(new io.debezium.relational.TableId("db", "sales", "orders")))
                .as("schema names (and so a tombstone's key schema) name the table, whatever its topic").isEqualTo("shop.sales.orders");
        assertThat(naming.recordSchemaPrefix(new io.debezium.relational.TableId("db", "public", "Order Items")))
                .isEqualTo("shop.public.Order-20Items");
    }

    @Test
    void debeziumsLagStatisticsAreOffSoABacklogDoesNotFloodTheLog() {
        assertThat(new DebeziumChangeSource(config()).engineProperties().getProperty("statistics.metrics.enabled")).isEqualTo("false");
    }
}
