package dev.tidemark.connector.pipeline;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether the sink has applied every record capture sent before it stopped on a change it cannot follow: its stop line
 * says what was sent ("nothing from that change on was sent"), and what it asks next may take the table out of the
 * pipeline (a renamed table leaves {@code source.tables}), after which no sink reads its topic again. So then
 * {@link Sidecar#close()} lets the sink apply what capture sent, on the partitions it owns, before stopping it.
 * Pure.
 */
final class SinkCatchUp {
    private SinkCatchUp() {
    }

    /**
     * True when, on every partition in {@code assigned} that capture sent records to ({@code sent}: partition → the
     * offset after its last acknowledged record), the sink's next applied offset ({@code applied}) has reached it.
     */
    static boolean caughtUp(Map<TopicPartition, Long> sent, Map<TopicPartition, Long> applied, Set<TopicPartition> assigned) {
        for (Map.Entry<TopicPartition, Long> e : sent.entrySet()) {
            if (assigned.contains(e.getKey()) && applied.getOrDefault(e.getKey(), 0L) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
