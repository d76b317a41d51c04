package dev.tidemark.connector.config;

import java.util.Map;
import java.util.Properties;

/**
 * The Kafka cluster events travel through.
 *
 * @param bootstrapServers  bootstrap servers
 * @param topicPrefix       topics are {@code <prefix>.<schema>.<table>}
 * @param partitions        partitions for topics Tidemark creates (ordering is per key, so any number is safe)
 * @param replicationFactor replication for topics Tidemark creates
 * @param properties        extra client properties (security, …), applied to producer, consumer and admin
 */
public record KafkaConfig(String bootstrapServers, String topicPrefix, int partitions, short replicationFactor,
                          Map<String, String> properties) {
    public KafkaConfig {
        properties = Map.copyOf(properties);
    }

    /** Properties for an admin client of this cluster: the extra client properties and the bootstrap servers. */
    public Properties adminProperties() {
        Properties p = new Properties();
        p.putAll(properties);
        p.put("bootstrap.servers", bootstrapServers);
        return p;
    }
}
