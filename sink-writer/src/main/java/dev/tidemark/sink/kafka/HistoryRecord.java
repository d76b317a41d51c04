package dev.tidemark.sink.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import org.apache.kafka.common.TopicPartition;

/**
 * What capture records about where one topic partition's complete history begins, in the pipeline's history topic
 * ({@link #topicFor}: compacted, keyed by topic-partition, the newest record per key wins). Capture writes it before
 * the first record of a snapshot (or of streaming after an accepted gap) is sent; the sink reads it for a partition
 * its target has no stored offset for ({@link NewTargetStart}).
 *
 * <p>Value: JSON, {@code {"version":1,"topic":…,"partition":…,"kind":"complete"|"gap","offset":…,"cause":…,"at":…}}.
 */
public sealed interface HistoryRecord {
    int VERSION = 1;

    TopicPartition partition();

    /** The offset the record is about: where the complete history starts, or where the gap is. */
    long offset();

    /** When capture wrote it. */
    Instant at();

    /**
     * The records from {@code offset} on are a complete history: a snapshot of every row first, then every change.
     *
     * @param cause what started it ("the initial snapshot", "a re-snapshot (--resnapshot)")
     */
    record Complete(TopicPartition partition, long offset, String cause, Instant at) implements HistoryRecord {
        public Complete {
            Objects.requireNonNull(partition, "partition");
            Objects.requireNonNull(cause, "cause");
            Objects.requireNonNull(at, "at");
        }
    }

    /**
     * Changes before {@code offset} are missing from the topic ({@code --accept-gap}): no offset before the next
     * snapshot starts a complete history.
     */
    record Gap(TopicPartition partition, long offset, Instant at) implements HistoryRecord {
        public Gap {
            Objects.requireNonNull(partition, "partition");
            Objects.requireNonNull(at, "at");
        }
    }

    /** The history topic of a pipeline whose topics are {@code <prefix>.<schema>.<table>}. */
    static String topicFor(String topicPrefix) {
        return topicPrefix + ".__tidemark_history";
    }

    /** The record's key: the topic-partition, e.g. {@code orders.public.items-0}. */
    static byte[] key(TopicPartition tp) {
        return tp.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The record's value, JSON. */
    static byte[] encode(HistoryRecord r) {
        return HistoryJson.encode(r);
    }

    /**
     * Reads a record capture wrote.
     *
     * @throws IllegalArgumentException naming what is wrong (a newer version, a missing field)
     */
    static HistoryRecord decode(byte[] value) {
        return HistoryJson.decode(value);
    }
}
