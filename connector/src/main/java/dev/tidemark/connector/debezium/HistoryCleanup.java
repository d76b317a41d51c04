package dev.tidemark.connector.debezium;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * What {@code tidemark drop --topics} does with capture's history topic {@code <topicPrefix>.__tidemark_history}
 * ({@link CaptureHistory}), which every pipeline with the same {@code kafka.topicPrefix} shares. Its records are keyed
 * by topic-partition ({@code <topic>-<partition>}), so a key tells whose record it is: the pipeline's own are those of
 * its topics. The topic is deleted only when every key still live in it (newest record not a tombstone) is the
 * pipeline's; when another pipeline's key is live, only the pipeline's own keys are removed, by tombstones (the topic is
 * compacted), and the others' records are left as they are. A topic without a live key of the pipeline is left alone.
 *
 * <p>Pure: {@link #decide} has no I/O; {@link HistoryDrop} reads the topic and carries the decision out.
 */
public sealed interface HistoryCleanup {
    /** Nothing of the pipeline in the history topic (or no history topic): nothing to do. */
    record Nothing() implements HistoryCleanup {
    }

    /** Every live key is the pipeline's: the topic is deleted. */
    record DeleteTopic(String topic, List<String> keys) implements HistoryCleanup {
        public DeleteTopic {
            keys = List.copyOf(keys);
        }
    }

    /** Other pipelines' keys are live ({@code othersKept} of them): only the pipeline's {@code keys} get a tombstone. */
    record Tombstones(String topic, List<String> keys, int othersKept) implements HistoryCleanup {
        public Tombstones {
            keys = List.copyOf(keys);
        }
    }

    HistoryCleanup NOTHING = new Nothing();

    /**
     * @param topic     the history topic
     * @param liveKeys  its keys whose newest record is not a tombstone (empty when the topic does not exist)
     * @param ownTopics the pipeline's topics
     */
    static HistoryCleanup decide(String topic, Collection<String> liveKeys, Set<String> ownTopics) {
        List<String> own = liveKeys.stream().filter(k -> ownTopics.contains(topicOf(k))).sorted().toList();
        if (own.isEmpty()) {
            return NOTHING;
        }
        int others = liveKeys.size() - own.size();
        return others == 0 ? new DeleteTopic(topic, own) : new Tombstones(topic, own, others);
    }

    /** The topic of a key {@code <topic>-<partition>}; the key itself when it has no partition suffix. */
    static String topicOf(String key) {
        int dash = key.lastIndexOf('-');
        return dash > 0 && key.substring(dash + 1).matches("\\d+") ? key.substring(0, dash) : key;
    }

    /** The dry run's line, or none. */
    default List<String> items() {
        if (this instanceof DeleteTopic d) {
            return List.of("history topic " + d.topic() + " (every record in it is this pipeline's: " + d.keys().size() + " partition(s))");
        }
        if (this instanceof Tombstones t) {
            return List.of("this pipeline's " + t.keys().size() + " record(s) in history topic " + t.topic() + " (by tombstones; "
                    + t.othersKept() + " record(s) of other pipelines with the same topicPrefix are kept, and the topic)");
        }
        return List.of();
    }
}
