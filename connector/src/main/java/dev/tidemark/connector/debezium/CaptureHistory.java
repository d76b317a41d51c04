package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.KafkaFailure;
import dev.tidemark.connector.config.KafkaAdmins;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.sink.kafka.HistoryRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the history records of a start ({@link HistoryPlan}) to the pipeline's history topic
 * ({@link HistoryRecord#topicFor}; created compacted with one partition when missing) and waits for Kafka's
 * acknowledgement, before the captured topics are created (a sink waiting for them then finds the records there when
 * they appear) and before the engine sends anything. A failure stops the start
 * with one line naming the topic and the broker.
 */
final class CaptureHistory {
    private static final long WAIT_SECONDS = 30;
    private static final Logger log = LoggerFactory.getLogger(CaptureHistory.class);

    private CaptureHistory() {
    }

    /** @param addedTopics the topics of tables new to the pipeline since its last start ({@link CaptureTopology}) */
    static void record(PipelineConfig config, CaptureStart start, Set<String> addedTopics) {
        if (!HistoryPlan.writes(start, addedTopics)) {
            return;
        }
        String topic = HistoryRecord.topicFor(config.kafka().topicPrefix());
        Admin admin = KafkaAdmins.create(config.kafka());
        try {
            createIfMissing(admin, config, topic);
            List<HistoryRecord> records = HistoryPlan.records(start, endOffsets(admin, config), addedTopics, Instant.now());
            send(config, topic, records);
            admin.close();
            log.info("capture {}: recorded in {} {}", config.name(), topic, records.size() == 0 ? "nothing"
                    : records.get(0) instanceof HistoryRecord.Gap ? "a gap at offsets " + offsets(records)
                    : "complete histories from offsets " + offsets(records));
        } catch (InterruptedException e) {
            admin.close(Duration.ZERO);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing history topic " + topic, e);
        } catch (TimeoutException e) {
            admin.close(Duration.ZERO);
            throw new IllegalStateException("Kafka at " + config.kafka().bootstrapServers() + " did not answer within " + WAIT_SECONDS
                    + " s while writing history topic " + topic + " (" + KafkaFailure.noAnswerHint(config.kafka()) + ")", e);
        } catch (ExecutionException e) {
            admin.close(Duration.ZERO);
            throw new IllegalStateException("cannot write history topic " + topic + " on " + config.kafka().bootstrapServers() + ": "
                    + KafkaFailure.reason(config.kafka(), e.getCause()), e.getCause());
        } catch (RuntimeException e) {
            admin.close(Duration.ZERO);
            throw e;
        }
    }

    private static String offsets(List<HistoryRecord> records) {
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        records.forEach(r -> out.put(r.partition().toString(), r.offset()));
        return out.toString();
    }

    private static void createIfMissing(Admin admin, PipelineConfig config, String topic)
            throws InterruptedException, TimeoutException, ExecutionException {
        NewTopic t = new NewTopic(topic, 1, config.kafka().replicationFactor())
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        try {
            admin.createTopics(List.of(t)).all().get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!hasLeader(admin, topic)) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("history topic " + topic + " has no leader after " + WAIT_SECONDS + " s");
            }
            Thread.sleep(100);
        }
    }

    private static boolean hasLeader(Admin admin, String topic) throws InterruptedException, TimeoutException, ExecutionException {
        try {
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(WAIT_SECONDS, TimeUnit.SECONDS).get(topic);
            return d.partitions().stream().allMatch(p -> p.leader() != null && p.leader().id() >= 0);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return false; // just created: not known to the broker's metadata yet
            }
            throw e;
        }
    }

    /**
     * The end offset of every partition of every captured topic; 0 for each of the {@code kafka.partitions} partitions
     * of a topic not created yet ({@link CaptureTopics} creates it empty right after).
     */
    private static Map<TopicPartition, Long> endOffsets(Admin admin, PipelineConfig config)
            throws InterruptedException, TimeoutException, ExecutionException {
        Set<String> existing = admin.listTopics().names().get(WAIT_SECONDS, TimeUnit.SECONDS);
        List<String> present = config.topics().stream().filter(existing::contains).toList();
        Map<TopicPartition, Long> out = new HashMap<>();
        for (String topic : config.topics()) {
            if (!existing.contains(topic)) {
                for (int p = 0; p < config.kafka().partitions(); p++) {
                    out.put(new TopicPartition(topic, p), 0L);
                }
            }
        }
        if (present.isEmpty()) {
            return out;
        }
        Map<TopicPartition, OffsetSpec> query = new HashMap<>();
        for (TopicDescription d : admin.describeTopics(present).allTopicNames().get(WAIT_SECONDS, TimeUnit.SECONDS).values()) {
            d.partitions().forEach(p -> query.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest()));
        }
        for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e
                : admin.listOffsets(query).all().get(WAIT_SECONDS, TimeUnit.SECONDS).entrySet()) {
            out.put(e.getKey(), e.getValue().offset());
        }
        return out;
    }

    private static void send(PipelineConfig config, String topic, List<HistoryRecord> records)
            throws InterruptedException, TimeoutException, ExecutionException {
        Properties p = CaptureSettings.acknowledgedProducer(config);
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "tidemark-history-" + config.name());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (HistoryRecord r : records) {
                acks.add(producer.send(new ProducerRecord<>(topic, 0, HistoryRecord.key(r.partition()), HistoryRecord.encode(r))));
            }
            producer.flush();
            for (Future<RecordMetadata> ack : acks) {
                ack.get(WAIT_SECONDS, TimeUnit.SECONDS);
            }
        }
    }
}
