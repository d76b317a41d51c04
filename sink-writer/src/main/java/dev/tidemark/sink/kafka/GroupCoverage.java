package dev.tidemark.sink.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumer thread: after each assignment, checks that every partition of the sink's topics is owned by some member
 * of its group ({@link UnownedPartitions}) and, where one is not, asks for a rebalance ({@code enforceRebalance}) with
 * one INFO line naming the partitions. At most {@value #MAX_REBALANCES} asks per runner; after them one WARN line
 * names what is still unowned. A group not yet stable is checked again after the next poll.
 */
final class GroupCoverage implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GroupCoverage.class);
    static final int MAX_REBALANCES = 3;

    private final Consumer<byte[], byte[]> consumer;
    private final SinkSettings settings;
    private Admin admin;
    private boolean due;
    private int asked;

    GroupCoverage(Consumer<byte[], byte[]> consumer, SinkSettings settings) {
        this.consumer = consumer;
        this.settings = settings;
    }

    /** A new assignment arrived (from the rebalance callback): check after this poll. */
    void assignmentChanged() {
        due = true;
    }

    /** Consumer thread, after a poll: the check, when one is due. */
    void checkIfDue() {
        if (!due) {
            return;
        }
        ConsumerGroupDescription group = describe();
        if (group == null || group.groupState() != GroupState.STABLE) {
            return; // checked again after the next poll
        }
        Map<String, Integer> counts;
        try {
            counts = partitionCounts();
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            return; // the broker did not answer: checked again after the next poll
        }
        due = false;
        Set<TopicPartition> unowned = UnownedPartitions.of(counts,
                group.members().stream().map(m -> m.assignment().topicPartitions()).toList());
        if (unowned.isEmpty()) {
            return;
        }
        if (asked >= MAX_REBALANCES) {
            log.warn("sink {}: partitions {} are owned by no member of group {} after {} rebalances asked for; they are not read",
                    settings.groupId(), unowned, settings.groupId(), asked);
            return;
        }
        asked++;
        log.info("sink {}: partitions {} are owned by no member of group {} (a member rejoined with its old assignment): "
                + "asking for a rebalance", settings.groupId(), unowned, settings.groupId());
        consumer.enforceRebalance("partitions owned by no member: " + unowned);
    }

    /** The partition count of each of the sink's topics that exists, from one metadata request. */
    private Map<String, Integer> partitionCounts() {
        Map<String, List<PartitionInfo>> all = consumer.listTopics(Duration.ofSeconds(10));
        Map<String, Integer> out = new HashMap<>();
        for (String topic : settings.topics()) {
            List<PartitionInfo> parts = all.get(topic);
            if (parts != null && !parts.isEmpty()) {
                out.put(topic, parts.size());
            }
        }
        return out;
    }

    private ConsumerGroupDescription describe() {
        try {
            return admin().describeConsumerGroups(List.of(settings.groupId())).all().get(10, TimeUnit.SECONDS).get(settings.groupId());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            log.debug("sink {}: describing group {} failed: {}", settings.groupId(), settings.groupId(), e.toString());
            return null;
        }
    }

    private Admin admin() {
        if (admin == null) {
            admin = Admin.create(adminProperties(settings));
        }
        return admin;
    }

    /** The consumer's properties an admin client takes (bootstrap servers, security, …), under a client id of its own. */
    static Properties adminProperties(SinkSettings settings) {
        Properties consumerProps = SinkConsumerConfig.properties(settings);
        Properties p = new Properties();
        for (String name : AdminClientConfig.configNames()) {
            if (consumerProps.containsKey(name)) {
                p.put(name, consumerProps.get(name));
            }
        }
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, consumerProps.get(AdminClientConfig.CLIENT_ID_CONFIG) + "-coverage");
        return p;
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
