package dev.tidemark.sink.kafka;

import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The properties of the sink's Kafka clients. The consumer's: {@link SinkSettings#extra()} may override the sink's
 * choices, except the first three, which keep the target's offsets authoritative and the topics capture's to create:
 * <ul>
 *   <li>{@code enable.auto.commit=false}: the target's {@code tidemark_offsets} is the only commit point.</li>
 *   <li>{@code allow.auto.create.topics=false}: a sink started before capture waits for the topics; capture creates
 *       them with {@code kafka.partitions}.</li>
 *   <li>{@code auto.offset.reset=none}: the sink seeks every partition itself; a position Kafka no longer has
 *       (retention) fails the poll instead of jumping silently to the earliest or latest record.</li>
 *   <li>{@code group.instance.id} when the settings name a member id (static membership), and
 *       {@code session.timeout.ms=10000} (Kafka's default is 45 s): a killed member that is restarted takes its
 *       partitions back at once, one that is not restarted gives them up after 10 s.</li>
 * </ul>
 */
final class SinkConsumerConfig {
    static final String SESSION_TIMEOUT_MS = "10000";
    static final String HEARTBEAT_INTERVAL_MS = "3000";

    private SinkConsumerConfig() {
    }

    static Properties properties(SinkSettings settings) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, settings.groupId());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(settings.maxBatch()));
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, SESSION_TIMEOUT_MS);
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, HEARTBEAT_INTERVAL_MS);
        String instance = settings.groupInstanceId();
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "tidemark-sink-" + (instance == null ? settings.groupId() : instance));
        if (instance != null) {
            p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instance);
        }
        p.putAll(settings.extra());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        // capture creates the topics with kafka.partitions; a sink started first waits for them instead of making the
        // broker create them with its default partition count (capture would then refuse the mismatch)
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        return p;
    }

    /** The producer for dead letters: acks from all replicas, idempotent, the pipeline's extra properties. */
    static KafkaProducer<byte[], byte[]> deadLetterProducer(SinkSettings settings) {
        return new KafkaProducer<>(deadLetterProperties(settings), new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The dead-letter producer's properties. */
    static Properties deadLetterProperties(SinkSettings settings) {
        Properties p = new Properties();
        p.putAll(settings.extra());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "tidemark-dlq-" + settings.groupId());
        return p;
    }
}
