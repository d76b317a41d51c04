package dev.tidemark.connector.debezium;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Pure: whether capture's existing topics have the partition count the config asks for. A topic created earlier
 * with another count (by hand, or by a broker that auto-created it) would silently keep its count, and the key →
 * partition mapping with it; capture refuses instead, naming the topic, both counts and the ways on.
 */
public final class TopicPartitionCheck {
    private TopicPartitionCheck() {
    }

    /**
     * @param existing   partition count of each of the pipeline's topics that already exists
     * @param configured {@code kafka.partitions}
     * @return the refusal (one line), or empty when every existing topic matches
     */
    public static Optional<String> refusal(Map<String, Integer> existing, int configured) {
        for (Map.Entry<String, Integer> e : new TreeMap<>(existing).entrySet()) {
            int actual = e.getValue();
            if (actual != configured) {
                return Optional.of("topic " + e.getKey() + " exists with " + actual + " partition" + (actual == 1 ? "" : "s")
                        + " but the config says kafka.partitions: " + configured + "; set kafka.partitions: " + actual
                        + " to keep the topic, or delete the topic (and, if the target applied from it, its rows in "
                        + "tidemark_offsets) so capture creates it with " + configured);
            }
        }
        return Optional.empty();
    }
}
