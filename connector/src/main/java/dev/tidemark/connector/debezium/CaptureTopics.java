package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.KafkaFailure;
import dev.tidemark.connector.config.KafkaAdmins;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.jdbc.UsageException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes capture's topics ready before the first send: creates each missing topic with the configured partitions and
 * replication factor (an existing topic is kept as it is), then waits (30 s at most) until every partition has a
 * leader, and that each takes capture's largest event ({@code max.message.bytes}, raised where it is lower). Failures
 * are one line naming the topics and the broker. {@link #checkExisting} refuses an existing topic
 * whose partition count differs from the config before anything is created.
 */
final class CaptureTopics {
    private static final long WAIT_SECONDS = 30;
    private static final Logger log = LoggerFactory.getLogger(CaptureTopics.class);

    private CaptureTopics() {
    }

    /**
     * Refuses ({@link UsageException}, before anything is created) when one of the pipeline's topics already exists
     * with a partition count other than {@code kafka.partitions}; see {@link TopicPartitionCheck}.
     */
    static void checkExisting(PipelineConfig config) {
        Admin admin = KafkaAdmins.create(config.kafka());
        try {
            Set<String> names = admin.listTopics().names().get(WAIT_SECONDS, TimeUnit.SECONDS);
            List<String> ours = config.topics().stream().filter(names::contains).toList();
            Map<String, Integer> counts = new HashMap<>();
            if (!ours.isEmpty()) {
                admin.describeTopics(ours).allTopicNames().get(WAIT_SECONDS, TimeUnit.SECONDS)
                        .forEach((name, d) -> counts.put(name, d.partitions().size()));
            }
            TopicPartitionCheck.refusal(counts, config.kafka().partitions()).ifPresent(m -> {
                throw new UsageException(m);
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading topics " + config.topics(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka at " + config.kafka().bootstrapServers() + " did not answer within "
                    + WAIT_SECONDS + " s while reading topics " + config.topics()
                    + " (" + KafkaFailure.noAnswerHint(config.kafka()) + ")", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read topics " + config.topics() + " on " + config.kafka().bootstrapServers()
                    + ": " + KafkaFailure.reason(config.kafka(), e.getCause()), e.getCause());
        } finally {
            // not close(): it would wait for an unanswered request's own timeout (60 s), twice the time stated above
            admin.close(Duration.ZERO);
        }
    }

    static void ensure(PipelineConfig config) {
        Admin admin = KafkaAdmins.create(config.kafka());
        try {
            create(admin, config);
            awaitLeaders(admin, config);
            raiseMessageSize(admin, config);
            admin.close();
        } catch (InterruptedException e) {
            admin.close(Duration.ZERO);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics " + config.topics(), e);
        } catch (TimeoutException e) {
            // not close(): it would wait for the unanswered request's own timeout (60 s), twice the time stated here
            admin.close(Duration.ZERO);
            throw new IllegalStateException("Kafka at " + config.kafka().bootstrapServers() + " did not answer within "
                    + WAIT_SECONDS + " s while creating topics " + config.topics()
                    + " (" + KafkaFailure.noAnswerHint(config.kafka()) + ")", e);
        } catch (RuntimeException e) {
            admin.close(Duration.ZERO);
            throw e;
        }
    }

    private static void create(Admin admin, PipelineConfig config) throws InterruptedException, TimeoutException {
        List<NewTopic> topics = config.topics().stream()
                .map(t -> new NewTopic(t, config.kafka().partitions(), config.kafka().replicationFactor())
                        .configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(CaptureSettings.topicMaxMessageBytes(config)))))
                .toList();
        for (Map.Entry<String, KafkaFuture<Void>> e : admin.createTopics(topics).values().entrySet()) {
            try {
                e.getValue().get(WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException ex) {
                if (!(ex.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("cannot create topic " + e.getKey() + " on "
                            + config.kafka().bootstrapServers() + ": " + KafkaFailure.reason(config.kafka(), ex.getCause()), ex.getCause());
                }
            }
        }
    }

    /**
     * Raises {@code max.message.bytes} of a topic that takes less than capture's largest event (one created before, or
     * by hand) so that a large row does not stop capture; one line per topic raised. Where the broker refuses (no
     * ALTER_CONFIGS permission), a warning names the topic and the command that raises it, and capture goes on: an
     * event above the topic's limit then stops capture naming it.
     */
    private static void raiseMessageSize(Admin admin, PipelineConfig config) throws InterruptedException, TimeoutException {
        int needed = CaptureSettings.topicMaxMessageBytes(config);
        Map<ConfigResource, Config> current;
        try {
            current = admin.describeConfigs(config.topics().stream().map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList())
                    .all().get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            log.warn("cannot read the configuration of topics {} on {} to check max.message.bytes: {}", config.topics(),
                    config.kafka().bootstrapServers(), e.getCause().getMessage());
            return;
        }
        for (Map.Entry<ConfigResource, Config> e : current.entrySet()) {
            ConfigEntry entry = e.getValue().get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            long has = entry == null || entry.value() == null ? 0 : Long.parseLong(entry.value());
            if (has >= needed) {
                continue;
            }
            String topic = e.getKey().name();
            try {
                admin.incrementalAlterConfigs(Map.of(e.getKey(), List.of(new AlterConfigOp(
                        new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(needed)), AlterConfigOp.OpType.SET))))
                        .all().get(WAIT_SECONDS, TimeUnit.SECONDS);
                log.info("topic {}: max.message.bytes raised from {} to {} (capture sends change events of up to {} bytes)",
                        topic, has, needed, CaptureSettings.maxEventBytes(config));
            } catch (ExecutionException ex) {
                log.warn("topic {} takes records of at most {} bytes and cannot be raised to {} ({}); a change event above {} bytes will stop"
                        + " capture. Raise it: kafka-configs.sh --bootstrap-server {} --alter --entity-type topics --entity-name {}"
                        + " --add-config max.message.bytes={}", topic, has, needed, ex.getCause().getMessage(), has,
                        config.kafka().bootstrapServers(), topic, needed);
            }
        }
    }

    /**
     * Waits until every partition of every topic has a leader, asking the broker afresh each time. A broker that just
     * created a topic can still answer "unknown topic" to a describe, and its first batches NOT_LEADER_OR_FOLLOWER
     * (which an idempotent producer with several requests in flight can turn into a long
     * OUT_OF_ORDER_SEQUENCE_NUMBER loop): both mean "not yet".
     */
    private static void awaitLeaders(Admin admin, PipelineConfig config) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (true) {
            List<String> notReady;
            try {
                notReady = admin.describeTopics(config.topics()).allTopicNames().get(WAIT_SECONDS, TimeUnit.SECONDS)
                        .values().stream()
                        .filter(d -> d.partitions().stream().anyMatch(p -> p.leader() == null || p.leader().id() < 0))
                        .map(TopicDescription::name)
                        .toList();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IllegalStateException("cannot describe topics " + config.topics() + " on "
                            + config.kafka().bootstrapServers() + ": " + KafkaFailure.reason(config.kafka(), e.getCause()), e.getCause());
                }
                notReady = config.topics();
            }
            if (notReady.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topics " + notReady + " on " + config.kafka().bootstrapServers()
                        + " still have partitions without a leader after " + WAIT_SECONDS + " s");
            }
            Thread.sleep(100);
        }
    }
}
