package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.KafkaFailure;
import dev.tidemark.connector.config.KafkaAdmins;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.sink.kafka.HistoryRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The I/O of {@link HistoryCleanup}: reads the live keys of the pipeline's history topic (a consumer of its own,
 * assigned, no group, nothing committed; a missing topic is never created) and deletes the topic or writes the
 * tombstones the decision names. Failures are an {@link IllegalStateException} with one line naming the topic.
 */
final class HistoryDrop {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private HistoryDrop() {
    }

    static HistoryCleanup inspect(PipelineConfig config) {
        String topic = HistoryRecord.topicFor(config.kafka().topicPrefix());
        return HistoryCleanup.decide(topic, liveKeys(config, topic), new HashSet<>(config.topics()));
    }

    /** Carries {@code cleanup} out; returns the line saying what was done, or none. */
    static List<String> remove(PipelineConfig config, HistoryCleanup cleanup) {
        try {
            if (cleanup instanceof HistoryCleanup.DeleteTopic d) {
                try (Admin admin = KafkaAdmins.create(config.kafka())) {
                    admin.deleteTopics(List.of(d.topic())).all().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                }
                return List.of("deleted history topic " + d.topic());
            }
            if (cleanup instanceof HistoryCleanup.Tombstones t) {
                tombstones(config, t);
                return List.of("removed this pipeline's " + t.keys().size() + " record(s) from history topic " + t.topic()
                        + " by tombstones (" + t.othersKept() + " of other pipelines kept)");
            }
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while cleaning history topic", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot clean history topic " + HistoryRecord.topicFor(config.kafka().topicPrefix()) + " on "
                    + config.kafka().bootstrapServers() + ": " + (e.getCause() == null ? "no answer within " + TIMEOUT.toSeconds() + " s"
                    : KafkaFailure.reason(config.kafka(), e.getCause())), e);
        }
    }

    private static void tombstones(PipelineConfig config, HistoryCleanup.Tombstones t)
            throws InterruptedException, ExecutionException, TimeoutException {
        Properties p = clientProperties(config);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (String key : t.keys()) {
                acks.add(producer.send(new ProducerRecord<>(t.topic(), 0, key.getBytes(StandardCharsets.UTF_8), null)));
            }
            producer.flush();
            for (Future<RecordMetadata> ack : acks) {
                ack.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
        }
    }

    /** The keys of {@code topic} whose newest record is not a tombstone; empty when the topic does not exist. */
    private static List<String> liveKeys(PipelineConfig config, String topic) {
        Properties p = clientProperties(config);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "500");
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = c.listTopics(TIMEOUT).get(topic);
            if (infos == null || infos.isEmpty()) {
                return List.of();
            }
            List<TopicPartition> tps = infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps, TIMEOUT);
            Map<String, Boolean> live = new HashMap<>();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (tps.stream().anyMatch(tp -> c.position(tp, TIMEOUT) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cannot read history topic " + topic + " to its end " + end + " within "
                            + TIMEOUT.toSeconds() + " s (check that the broker is healthy, or drop without --topics)");
                }
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    live.put(r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8), r.value() != null);
                }
            }
            return live.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).sorted().toList();
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new IllegalStateException("cannot read history topic " + topic + " on " + config.kafka().bootstrapServers() + ": "
                    + KafkaFailure.reason(config.kafka(), e) + " (check kafka.bootstrapServers, or drop without --topics)", e);
        }
    }

    static Properties clientProperties(PipelineConfig config) {
        Properties p = new Properties();
        p.putAll(config.kafka().properties());
        p.remove(ConsumerConfig.GROUP_ID_CONFIG);
        p.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafka().bootstrapServers());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "tidemark-drop-" + config.name());
        return p;
    }
}
