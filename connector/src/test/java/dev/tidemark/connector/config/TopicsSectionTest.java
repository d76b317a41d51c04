package dev.tidemark.connector.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code kafka.topics} in the pipeline file. */
class TopicsSectionTest {
    private static PipelineConfig parse(String kafkaExtra, String tables) {
        return PipelineConfigParser.parse("name: p\nsource:\n  url: jdbc:postgresql://h/db\n  tables: " + tables + "\n"
                + "kafka:\n  bootstrapServers: k:9092\n" + kafkaExtra + "target:\n  url: jdbc:sqlite:t.db\n", "p.yaml", Path.of("."),
                Map.<String, String>of()::get);
    }

    @Test
    void anExplicitTopicNamesTheTablesTopicEverywhere() {
        PipelineConfig c = parse("  topics: {'public.Order Items': order-items}\n", "['public.Order Items', public.orders]");
        assertThat(c.kafka().topics()).containsExactly(Map.entry(new TableId("public", "Order Items"), "order-items"));
        assertThat(c.topics()).containsExactly("order-items", "p.public.orders");
    }

    @Test
    void withoutEntriesEveryTableHasItsEscapedTopic() {
        assertThat(parse("", "['public.Order Items']").topics()).containsExactly("p.public.Order-20Items");
    }

    @Test
    void everyBadEntryIsReportedNamingItsKey() {
        assertThatThrownBy(() -> parse("  topics: {public.orders: 'bad name', public.nosuch: x, sales.orders: p.public.orders}\n",
                "[public.orders, sales.orders]"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Invalid value bad name for configuration kafka.topics.public.orders: a topic name has only letters")
                .hasMessageContaining("Invalid value x for configuration kafka.topics.public.nosuch: public.nosuch is not in source.tables")
                .hasMessageContaining("Invalid configuration kafka.topics: tables public.orders and sales.orders would share topic 'p.public.orders'");
    }

    @Test
    void aPrefixThatMakesNoTopicNameIsReportedOnTheTopicPrefix() {
        assertThatThrownBy(() -> parse("  topicPrefix: 'my shop'\n", "[public.orders]"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Invalid configuration kafka.topicPrefix: table public.orders: topic 'my shop.public.orders' is not a valid");
    }

    @Test
    void topicsThatIsNoMappingIsReported() {
        assertThatThrownBy(() -> parse("  topics: [a, b]\n", "[public.orders]"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("configuration kafka.topics: expected a mapping");
    }
}
