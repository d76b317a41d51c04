package dev.tidemark.sink.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The Kafka side of a sink writer.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param groupId          consumer group (scale out: more instances with the same group); also the pipeline name
 *                         under which offsets are stored in the target
 * @param topics           topics to consume
 * @param maxBatch         most records per poll and so per target transaction
 * @param pollTimeout      how long one poll waits for records
 * @param replayFrom       where to start on the first assignment
 * @param extra            further consumer properties (security settings and the like)
 * @param deadLetterTopic  where poison events go (null: a poison event stops the sink, naming it)
 */
public record SinkSettings(String bootstrapServers, String groupId, List<String> topics, int maxBatch,
                           Duration pollTimeout, ReplayFrom replayFrom, Map<String, String> extra, String deadLetterTopic) {
    public SinkSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(groupId, "groupId");
        topics = List.copyOf(topics);
        extra = Map.copyOf(extra);
        if (topics.isEmpty()) {
            throw new IllegalArgumentException("no topics to consume");
        }
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1 but is " + maxBatch);
        }
        if (deadLetterTopic != null && topics.contains(deadLetterTopic)) {
            throw new IllegalArgumentException("dead-letter topic " + deadLetterTopic + " is also a consumed topic");
        }
    }

    public SinkSettings(String bootstrapServers, String groupId, List<String> topics, int maxBatch, Duration pollTimeout,
                        ReplayFrom replayFrom, Map<String, String> extra) {
        this(bootstrapServers, groupId, topics, maxBatch, pollTimeout, replayFrom, extra, null);
    }
}
