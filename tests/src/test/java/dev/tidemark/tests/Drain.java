package dev.tidemark.tests;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.reconcile.ComparisonResult;
import dev.tidemark.testkit.TableComparison;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;

/** Helpers of the ordering ITs: wait for a drain, and read the envelopes capture produced. */
final class Drain {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Drain() {
    }

    /**
     * Waits (at most {@code atMost}) until the target table equals the source by key and row checksum and returns the
     * last comparison, equal or not: the caller asserts on it, so a failure names the missing, surplus and changed keys.
     */
    static ComparisonResult compareAfterDrain(Connection source, TableId table, String targetUrl, List<String> keys,
                                              Duration atMost, BooleanSupplier failed) {
        AtomicReference<ComparisonResult> last = new AtomicReference<>();
        try {
            await("target table " + table.table() + " equal to source " + table)
                    .atMost(atMost).pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        if (failed.getAsBoolean()) {
                            return true;
                        }
                        try (Connection t = DriverManager.getConnection(targetUrl)) {
                            ComparisonResult r = TableComparison.compare(source, table, keys, t, table.table(),
                                    TableComparison.QuoteStyle.DOUBLE);
                            last.set(r);
                            return r.equal();
                        } catch (SQLException e) {
                            return false; // target table not created yet
                        }
                    });
        } catch (ConditionTimeoutException e) {
            // the assertion on the last comparison names what differs
        }
        return last.get();
    }

    /**
     * Records on {@code topic} so far (sum of its partitions' end offsets); 0 while the topic does not exist. Never
     * creates the topic (a broker's auto-creation would give it the wrong number of partitions).
     */
    static long topicSize(String bootstrap, String topic) {
        java.util.Properties p = new java.util.Properties();
        p.put(org.apache.kafka.clients.consumer.ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(org.apache.kafka.clients.consumer.ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p,
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            List<org.apache.kafka.common.PartitionInfo> parts = c.listTopics(Duration.ofSeconds(10)).get(topic);
            if (parts == null) {
                return 0;
            }
            List<TopicPartition> tps = new ArrayList<>();
            for (org.apache.kafka.common.PartitionInfo pi : parts) {
                tps.add(new TopicPartition(topic, pi.partition()));
            }
            return c.endOffsets(tps, Duration.ofSeconds(10)).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** The first record value (envelope payload) on {@code topic} whose payload matches, or null after 30 s. */
    static JsonNode firstPayload(String bootstrap, String topic, Predicate<JsonNode> matches) throws IOException {
        try (KafkaConsumer<byte[], byte[]> c = KafkaTopics.consumer(bootstrap)) {
            Map<TopicPartition, Long> end = KafkaTopics.endOffsets(bootstrap, topic);
            List<TopicPartition> tps = new ArrayList<>(end.keySet());
            c.assign(tps);
            c.seekToBeginning(tps);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                boolean atEnd = true;
                for (TopicPartition tp : tps) {
                    atEnd &= c.position(tp) >= end.get(tp);
                }
                if (atEnd) {
                    return null;
                }
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    if (r.value() != null) {
                        JsonNode payload = JSON.readTree(r.value()).path("payload");
                        if (matches.test(payload)) {
                            return payload;
                        }
                    }
                }
            }
        }
        return null;
    }
}
