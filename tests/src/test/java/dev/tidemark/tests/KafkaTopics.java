package dev.tidemark.tests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads topics directly, to check what capture produced. */
public final class KafkaTopics {
    private static final ObjectMapper JSON = new ObjectMapper();

    private KafkaTopics() {
    }

    public static KafkaConsumer<byte[], byte[]> consumer(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    public static Map<TopicPartition, Long> endOffsets(String bootstrap, String topic) {
        try (KafkaConsumer<byte[], byte[]> c = consumer(bootstrap)) {
            List<TopicPartition> tps = new ArrayList<>();
            for (PartitionInfo pi : c.partitionsFor(topic, Duration.ofSeconds(10))) {
                tps.add(new TopicPartition(topic, pi.partition()));
            }
            return new HashMap<>(c.endOffsets(tps, Duration.ofSeconds(10)));
        }
    }

    /** The {@code op} of every record after {@code from} up to the current end ("tombstone" for null values). */
    public static List<String> opsSince(String bootstrap, Map<TopicPartition, Long> from) throws IOException {
        List<String> ops = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = consumer(bootstrap)) {
            Map<TopicPartition, Long> end = c.endOffsets(from.keySet(), Duration.ofSeconds(10));
            c.assign(from.keySet());
            from.forEach(c::seek);
            long remaining = end.entrySet().stream().mapToLong(e -> e.getValue() - from.get(e.getKey())).sum();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (remaining > 0 && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                        remaining--;
                        if (r.value() == null) {
                            ops.add("tombstone");
                        } else {
                            JsonNode n = JSON.readTree(r.value());
                            ops.add(n.path("payload").path("op").asText());
                        }
                    }
                }
            }
        }
        return ops;
    }
}
