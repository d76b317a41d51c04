package dev.tidemark.sink.kafka;

import dev.tidemark.event.TableId;
import java.time.Duration;

/**
 * What the sink writer reports for metrics, a role with a no-op default ({@link #NONE}) so the consumer loop stays
 * testable without a metrics library. Calls come from the consumer thread ({@link #partitionFetched}) and the apply thread
 * (the rest); an implementation must be thread-safe and must never block or throw.
 */
public interface SinkMetrics {
    /** Reports nothing. */
    SinkMetrics NONE = new SinkMetrics() {
    };

    /** {@code events} change events of {@code table} were committed to the target. */
    default void applied(TableId table, long events) {
    }

    /** One batch (or isolated part of one) was committed to the target in {@code took}. */
    default void batchApplied(Duration took) {
    }

    /**
     * The target now holds a partition up to {@code nextOffset}; {@code lastTimestampMs} is the Kafka timestamp of the
     * last record applied there.
     */
    default void partitionApplied(String topic, int partition, long nextOffset, long lastTimestampMs) {
    }

    /**
     * After a poll: the consumer's {@code position} in the partition and its log end {@code endOffset} as the last
     * fetch saw it (no extra request to Kafka).
     */
    default void partitionFetched(String topic, int partition, long position, long endOffset) {
    }
}
