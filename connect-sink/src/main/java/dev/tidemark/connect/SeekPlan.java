package dev.tidemark.connect;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Where each newly opened partition starts: the target's offsets win. A partition with an offset stored in the
 * target's {@code tidemark_offsets} starts there, whatever Connect committed to Kafka; one without starts at offset 0
 * (its first record), so a target that never applied a partition reads it whole. Pure.
 *
 * <p>Example: stored {@code orders:0 → 120}, opened {@code orders:0, orders:1} → seek {@code orders:0 → 120,
 * orders:1 → 0}.
 */
final class SeekPlan {
    private SeekPlan() {
    }

    /** The seek per partition in {@code opened}, from the offsets stored by topic and partition. */
    static Map<TopicPartition, Long> plan(Collection<TopicPartition> opened, Map<String, Map<Integer, Long>> stored) {
        Map<TopicPartition, Long> seeks = new LinkedHashMap<>();
        for (TopicPartition tp : opened) {
            Long at = stored.getOrDefault(tp.topic(), Map.of()).get(tp.partition());
            seeks.put(tp, at == null ? 0L : at);
        }
        return seeks;
    }

    /** Of {@code opened}, the offsets stored in the target (no entry: nothing stored yet). */
    static Map<TopicPartition, Long> storedOnly(Collection<TopicPartition> opened, Map<String, Map<Integer, Long>> stored) {
        Map<TopicPartition, Long> out = new LinkedHashMap<>();
        for (TopicPartition tp : opened) {
            Long at = stored.getOrDefault(tp.topic(), Map.of()).get(tp.partition());
            if (at != null) {
                out.put(tp, at);
            }
        }
        return out;
    }
}
