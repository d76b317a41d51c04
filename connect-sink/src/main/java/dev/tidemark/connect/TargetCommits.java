package dev.tidemark.connect;

import dev.tidemark.sink.jdbc.PartitionOffset;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The next offset per partition that is committed in the target (read at {@code open}, or written by a target
 * transaction of this task), and what {@code preCommit} may therefore let Connect commit to Kafka: only those, so
 * Connect's own commits never run ahead of the target. Partitions without a target commit are left out (Connect then
 * commits nothing for them). Not thread-safe: used by the task's thread only.
 *
 * <p>Example: committed {@code orders:0 → 120}; Connect's current offsets {@code orders:0 → 150, orders:1 → 7} →
 * preCommit returns {@code orders:0 → 120}.
 */
final class TargetCommits {
    private final Map<TopicPartition, Long> committed = new HashMap<>();

    /** Offsets stored in the target, read when partitions were opened (or re-read after a fence). */
    void read(Map<TopicPartition, Long> stored) {
        committed.putAll(stored);
    }

    /** A target transaction committed these next offsets. */
    void committed(Collection<PartitionOffset> offsets) {
        for (PartitionOffset o : offsets) {
            committed.put(new TopicPartition(o.topic(), o.partition()), o.nextOffset());
        }
    }

    /** Partitions closed (revoked or lost): nothing more is committed for them by this task. */
    void forget(Collection<TopicPartition> partitions) {
        partitions.forEach(committed::remove);
    }

    /** What {@code preCommit(current)} returns: of Connect's partitions, the offsets committed in the target. */
    Map<TopicPartition, OffsetAndMetadata> forKafka(Map<TopicPartition, OffsetAndMetadata> current) {
        Map<TopicPartition, OffsetAndMetadata> out = new LinkedHashMap<>();
        for (TopicPartition tp : current.keySet()) {
            Long next = committed.get(tp);
            if (next != null) {
                out.put(tp, new OffsetAndMetadata(next));
            }
        }
        return out;
    }
}
