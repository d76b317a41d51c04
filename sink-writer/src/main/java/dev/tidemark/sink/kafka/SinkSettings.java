package dev.tidemark.sink.kafka;

import dev.tidemark.jdbc.UsageException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The Kafka side of a sink writer.
 *
 * @param bootstrapServers   Kafka bootstrap servers
 * @param groupId            consumer group (scale out: more instances with the same group); also the pipeline name
 *                           under which offsets are stored in the target
 * @param topics             topics to consume
 * @param maxBatch           most records per poll and so per target transaction
 * @param pollTimeout        how long one poll waits for records
 * @param replayFrom         where to start on the first assignment
 * @param extra              further consumer properties (security settings and the like); they override the sink's
 *                           own defaults, {@code group.instance.id} included
 * @param deadLetterTopic    where poison events go (null: a poison event stops the sink, naming it)
 * @param memberId           this member's id within the group (null: a dynamic member). When set, the consumer is a
 *                           static member with {@code group.instance.id = <groupId>-<memberId>}: restarted with the
 *                           same id after a crash, it takes its partitions back at once instead of waiting for the
 *                           dead member's session to expire. Every running member of a group needs its own id.
 * @param acceptRetentionGap the user's explicit choice to start a partition at its earliest retained offset where
 *                           records the target never applied were deleted (see {@link StartPositions})
 * @param skipUnapplied      the user's explicit choice to let a replay point past the stored offset skip the records
 *                           in between (see {@link StartPositions})
 */
public record SinkSettings(String bootstrapServers, String groupId, List<String> topics, int maxBatch,
                           Duration pollTimeout, ReplayFrom replayFrom, Map<String, String> extra, String deadLetterTopic,
                           String memberId, boolean acceptRetentionGap, boolean skipUnapplied) {
    public SinkSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(replayFrom, "replayFrom");
        topics = List.copyOf(topics);
        extra = Map.copyOf(extra);
        if (topics.isEmpty()) {
            throw new UsageException("no topics to consume");
        }
        if (maxBatch < 1) {
            throw new UsageException("maxBatch must be at least 1 but is " + maxBatch);
        }
        if (deadLetterTopic != null && topics.contains(deadLetterTopic)) {
            throw new UsageException("dead-letter topic " + deadLetterTopic + " is also a consumed topic");
        }
        if (memberId != null && (memberId.isBlank() || !memberId.matches("[A-Za-z0-9._-]+"))) {
            throw new UsageException("member id '" + memberId + "' must be letters, digits, '.', '_' or '-'");
        }
    }

    public SinkSettings(String bootstrapServers, String groupId, List<String> topics, int maxBatch, Duration pollTimeout,
                        ReplayFrom replayFrom, Map<String, String> extra, String deadLetterTopic) {
        this(bootstrapServers, groupId, topics, maxBatch, pollTimeout, replayFrom, extra, deadLetterTopic, null, false, false);
    }

    public SinkSettings(String bootstrapServers, String groupId, List<String> topics, int maxBatch, Duration pollTimeout,
                        ReplayFrom replayFrom, Map<String, String> extra) {
        this(bootstrapServers, groupId, topics, maxBatch, pollTimeout, replayFrom, extra, null);
    }

    /** The same settings as a static member with this id (null: dynamic). */
    public SinkSettings withMemberId(String id) {
        return new SinkSettings(bootstrapServers, groupId, topics, maxBatch, pollTimeout, replayFrom, extra, deadLetterTopic, id,
                acceptRetentionGap, skipUnapplied);
    }

    /** The same settings with the user's explicit choices about records that would be skipped. */
    public SinkSettings withSkipChoices(boolean acceptGap, boolean skip) {
        return new SinkSettings(bootstrapServers, groupId, topics, maxBatch, pollTimeout, replayFrom, extra, deadLetterTopic, memberId,
                acceptGap, skip);
    }

    /** The consumer's {@code group.instance.id}, when this member is static. */
    public String groupInstanceId() {
        return memberId == null ? null : groupId + "-" + memberId;
    }
}
