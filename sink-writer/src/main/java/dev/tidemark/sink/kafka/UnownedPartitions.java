package dev.tidemark.sink.kafka;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;

/**
 * The partitions of the sink's topics that no member of its consumer group owns. Pure.
 *
 * <p>A static member that rejoins a stable group before its session ran out gets its old assignment back without a
 * rebalance, even when its subscription now holds a topic more (a table added to {@code source.tables} after a
 * {@code kill -9}); that topic's partitions then belong to nobody and nothing reads them. Any such partition of a
 * stable group is that case: the sink then asks for a rebalance.
 */
final class UnownedPartitions {
    private UnownedPartitions() {
    }

    /**
     * @param partitionCounts the partition count of each subscribed topic that exists (a topic not created yet is absent)
     * @param owned           the partitions each member of the group owns
     * @return the subscribed partitions no member owns, in topic and partition order
     */
    static Set<TopicPartition> of(Map<String, Integer> partitionCounts, Collection<? extends Collection<TopicPartition>> owned) {
        Set<TopicPartition> out = new TreeSet<>(java.util.Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        partitionCounts.forEach((topic, count) -> {
            for (int p = 0; p < count; p++) {
                out.add(new TopicPartition(topic, p));
            }
        });
        owned.forEach(out::removeAll);
        return out;
    }
}
