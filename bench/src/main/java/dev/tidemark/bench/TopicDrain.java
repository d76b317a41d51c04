package dev.tidemark.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The sink contenders' read loop: subscribe, poll until every partition's position reaches the end offsets read at
 * the start, hand each non-empty poll to the contender and report the records handed so far to its progress. The
 * loop does not call {@link ContenderProgress#done()}: a contender may still have writes to flush.
 */
final class TopicDrain {
    private TopicDrain() {
    }

    /** What a contender does with one poll. */
    @FunctionalInterface
    interface Batch {
        void accept(ConsumerRecords<byte[], byte[]> records) throws Exception;
    }

    /** Drains {@code topic} up to {@code end}; returns each partition's next offset. */
    static Map<TopicPartition, Long> drain(KafkaConsumer<byte[], byte[]> consumer, String topic, Map<TopicPartition, Long> end,
                                           ContenderProgress progress, Batch batch) throws Exception {
        consumer.subscribe(List.of(topic));
        Map<TopicPartition, Long> position = new HashMap<>();
        long handed = 0;
        while (!reached(position, end)) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
            if (records.isEmpty()) {
                continue;
            }
            batch.accept(records);
            for (ConsumerRecord<byte[], byte[]> r : records) {
                position.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
            }
            handed += records.count();
            progress.observe(handed);
        }
        return position;
    }

    /** Each partition's end offset now. */
    static Map<TopicPartition, Long> endOffsets(String bootstrap, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions().size();
            Map<TopicPartition, OffsetSpec> query = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                query.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            Map<TopicPartition, Long> end = new HashMap<>();
            admin.listOffsets(query).all().get(30, TimeUnit.SECONDS).forEach((tp, info) -> end.put(tp, info.offset()));
            return end;
        }
    }

    static long total(Map<TopicPartition, Long> end) {
        return end.values().stream().mapToLong(Long::longValue).sum();
    }

    private static boolean reached(Map<TopicPartition, Long> position, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (position.getOrDefault(e.getKey(), 0L) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
