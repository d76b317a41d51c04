package dev.tidemark.sink.kafka;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/**
 * What the sink knows about where its topics' complete histories begin, read from the pipeline's history topic
 * ({@link HistoryRecord#topicFor}) by {@link HistoryReader}.
 */
public sealed interface TopicHistory {
    /** Nothing to read: no history topic was named, or it does not exist (topics not written by Tidemark's capture). */
    record NotKept(String topic) implements TopicHistory {
    }

    /**
     * The history topic exists; {@code latest} holds the newest record per topic-partition (a partition absent from it
     * has none).
     */
    record Kept(String topic, Map<TopicPartition, HistoryRecord> latest) implements TopicHistory {
        public Kept {
            Objects.requireNonNull(topic, "topic");
            latest = Map.copyOf(latest);
        }

        public Optional<HistoryRecord> of(TopicPartition tp) {
            return Optional.ofNullable(latest.get(tp));
        }
    }

    TopicHistory NONE = new NotKept(null);
}
