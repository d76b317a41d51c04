package dev.tidemark.connector.config;

import dev.tidemark.event.TableId;
import java.util.Map;
import java.util.Properties;

/**
 * The Kafka cluster events travel through.
 *
 * @param bootstrapServers  bootstrap servers
 * @param topicPrefix       topics are {@code <prefix>.<schema>.<table>}, escaped ({@link TopicNames})
 * @param partitions        partitions for topics Tidemark creates (ordering is per key, so any number is safe)
 * @param replicationFactor replication for topics Tidemark creates
 * @param properties        extra client properties (security, …), applied to producer, consumer and admin
 * @param topics            explicit topics of some captured tables ({@code kafka.topics}), instead of the default name
 */
public record KafkaConfig(String bootstrapServers, String topicPrefix, int partitions, short replicationFactor,
                          Map<String, String> properties, Map<TableId, String> topics) {
    public KafkaConfig {
        properties = Map.copyOf(properties);
        topics = Map.copyOf(topics);
    }

    /** Every table on its default topic. */
    public KafkaConfig(String bootstrapServers, String topicPrefix, int partitions, short replicationFactor,
                       Map<String, String> properties) {
        this(bootstrapServers, topicPrefix, partitions, replicationFactor, properties, Map.of());
    }

    /** Properties for an admin client of this cluster: the extra client properties and the bootstrap servers. */
    public Properties adminProperties() {
        Properties p = new Properties();
        p.putAll(properties);
        p.put("bootstrap.servers", bootstrapServers);
        return p;
    }
}
