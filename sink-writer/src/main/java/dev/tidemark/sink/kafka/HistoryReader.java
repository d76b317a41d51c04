package dev.tidemark.sink.kafka;

import java.time.Duration;
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

/**
 * Reads the pipeline's history topic ({@link HistoryRecord#topicFor}) whole, with a consumer of its own (assigned, no
 * group, nothing committed), and keeps the newest record per topic-partition. A topic that does not exist is
 * {@link TopicHistory.NotKept}; it is never created.
 */
final class HistoryReader {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private HistoryReader() {
    }

    /**
     * @throws SinkPositionException when the topic cannot be read to its end within 30 s, or holds a record this
     *                               version cannot read (naming topic, partition and offset)
     */
    static TopicHistory read(SinkSettings settings, String topic) {
        if (topic == null) {
            return TopicHistory.NONE;
        }
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(properties(settings), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = c.listTopics(TIMEOUT).get(topic);
            if (infos == null || infos.isEmpty()) {
                return new TopicHistory.NotKept(topic);
            }
            List<TopicPartition> tps = infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps, TIMEOUT);
            Map<String, HistoryRecord> byKey = new HashMap<>();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (tps.stream().anyMatch(tp -> c.position(tp, TIMEOUT) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new SinkPositionException("sink " + settings.groupId() + ": cannot read history topic " + topic + " to its end "
                            + end + " within " + TIMEOUT.toSeconds() + " s (check that the broker is healthy, then restart the sink)", null);
                }
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    String key = r.key() == null ? "" : new String(r.key(), java.nio.charset.StandardCharsets.UTF_8);
                    if (r.value() == null) {
                        byKey.remove(key);
                        continue;
                    }
                    try {
                        byKey.put(key, HistoryRecord.decode(r.value()));
                    } catch (IllegalArgumentException e) {
                        throw new SinkPositionException("sink " + settings.groupId() + ": history topic " + topic + " partition "
                                + r.partition() + " offset " + r.offset() + ": " + e.getMessage()
                                + " (was it written by a newer Tidemark? upgrade this sink)", e);
                    }
                }
            }
            Map<TopicPartition, HistoryRecord> latest = new HashMap<>();
            byKey.values().forEach(h -> latest.put(h.partition(), h));
            return new TopicHistory.Kept(topic, latest);
        }
    }

    /** The sink's consumer settings (security and the like) without its group: this consumer is assigned. */
    static Properties properties(SinkSettings settings) {
        Properties p = SinkConsumerConfig.properties(settings);
        p.remove(ConsumerConfig.GROUP_ID_CONFIG);
        p.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "tidemark-history-" + settings.groupId());
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "500");
        return p;
    }
}
