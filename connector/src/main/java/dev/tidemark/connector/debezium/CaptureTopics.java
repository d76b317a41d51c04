package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.jdbc.UsageException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Makes capture's topics ready before the first send: creates each missing topic with the configured partitions and
 * replication factor (an existing topic is kept as it is), then waits (30 s at most) until every partition has a
 * leader. Failures are one line naming the topics and the broker. {@link #checkExisting} refuses an existing topic
 * whose partition count differs from the config before anything is created.
 */
final class CaptureTopics {
    private static final long WAIT_SECONDS = 30;

    private CaptureTopics() {
    }

    /**
     * Refuses ({@link UsageException}, before anything is created) when one of the pipeline's topics already exists
     * with a partition count other than {@code kafka.partitions}; see {@link TopicPartitionCheck}.
     */
    static void checkExisting(PipelineConfig config) {
        Admin admin = Admin.create(adminProperties(config));
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
                    + " (check kafka.bootstrapServers and that the broker is up)", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read topics " + config.topics() + " on " + config.kafka().bootstrapServers()
                    + ": " + e.getCause().getMessage(), e.getCause());
        } finally {
            // not close(): it would wait for an unanswered request's own timeout (60 s), twice the time stated above
            admin.close(Duration.ZERO);
        }
    }

    static Properties adminProperties(PipelineConfig config) {
        Properties p = new Properties();
        p.putAll(config.kafka().properties());
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafka().bootstrapServers());
        return p;
    }

    static void ensure(PipelineConfig config) {
        Admin admin = Admin.create(adminProperties(config));
        try {
            create(admin, config);
            awaitLeaders(admin, config);
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
                    + " (check kafka.bootstrapServers and that the broker is up)", e);
        } catch (RuntimeException e) {
            admin.close(Duration.ZERO);
            throw e;
        }
    }

    private static void create(Admin admin, PipelineConfig config) throws InterruptedException, TimeoutException {
        List<NewTopic> topics = config.topics().stream()
                .map(t -> new NewTopic(t, config.kafka().partitions(), config.kafka().replicationFactor()))
                .toList();
        for (Map.Entry<String, KafkaFuture<Void>> e : admin.createTopics(topics).values().entrySet()) {
            try {
                e.getValue().get(WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException ex) {
                if (!(ex.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("cannot create topic " + e.getKey() + " on "
                            + config.kafka().bootstrapServers() + ": " + ex.getCause().getMessage(), ex.getCause());
                }
            }
        }
    }

    /**
     * Waits until every partition of every topic has a leader, asking the broker afresh each time. A broker that just
     * created a topic can still answer "unknown topic" to a describe, and its first batches NOT_LEADER_OR_FOLLOWER
     * (which an idempotent producer with several requests in flight was seen here to turn into a long
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
                            + config.kafka().bootstrapServers() + ": " + e.getCause().getMessage(), e.getCause());
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
