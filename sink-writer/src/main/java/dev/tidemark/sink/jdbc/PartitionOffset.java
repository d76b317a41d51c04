package dev.tidemark.sink.jdbc;

import java.util.Objects;

/** The next offset to consume from one topic partition, as stored in the target's {@code tidemark_offsets}. */
public record PartitionOffset(String topic, int partition, long nextOffset) {
    public PartitionOffset {
        Objects.requireNonNull(topic, "topic");
        if (partition < 0 || nextOffset < 0) {
            throw new IllegalArgumentException("negative partition or offset for topic " + topic);
        }
    }
}
