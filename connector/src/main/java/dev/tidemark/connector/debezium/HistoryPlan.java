package dev.tidemark.connector.debezium;

import dev.tidemark.sink.kafka.HistoryRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * What capture records in the history topic for a start, pure: a snapshot ({@link CaptureStart.Fresh},
 * {@link CaptureStart.Resnapshot}) starts a complete history at each partition's end offset at that moment (0 for a
 * topic just created); {@link CaptureStart.AcceptGap} records a gap there; resuming records nothing (the history
 * goes on), except on the topics of tables added to the pipeline since its last start: their incremental snapshot
 * starts a complete history at those topics' end offsets.
 */
final class HistoryPlan {
    static final String INITIAL = "the initial snapshot";
    static final String RESNAPSHOT = "a re-snapshot (--resnapshot)";
    static final String ADDED = "the incremental snapshot of a table added to the pipeline";

    private HistoryPlan() {
    }

    /** Whether {@code start} writes history records at all (so the end offsets need reading). */
    static boolean writes(CaptureStart start) {
        return start instanceof CaptureStart.Fresh || start instanceof CaptureStart.Resnapshot || start instanceof CaptureStart.AcceptGap;
    }

    /** Whether a start writes history records when {@code addedTopics} are the topics of tables new to the pipeline. */
    static boolean writes(CaptureStart start, Set<String> addedTopics) {
        return writes(start) || !addedTopics.isEmpty();
    }

    /**
     * As {@link #records(CaptureStart, Map, Instant)}; a start that records nothing of its own records a complete
     * history on each partition of {@code addedTopics} (tables new to the pipeline, snapshotted incrementally).
     */
    static List<HistoryRecord> records(CaptureStart start, Map<TopicPartition, Long> ends, Set<String> addedTopics, Instant now) {
        if (writes(start)) {
            return records(start, ends, now);
        }
        return ends.entrySet().stream().filter(e -> addedTopics.contains(e.getKey().topic()))
                .sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing(TopicPartition::toString)))
                .map(e -> (HistoryRecord) new HistoryRecord.Complete(e.getKey(), e.getValue(), ADDED, now)).toList();
    }

    /** @param ends every partition of every captured topic, at its end offset before capture sends anything */
    static List<HistoryRecord> records(CaptureStart start, Map<TopicPartition, Long> ends, Instant now) {
        List<HistoryRecord> out = new ArrayList<>();
        if (!writes(start)) {
            return out;
        }
        ends.entrySet().stream().sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing(TopicPartition::toString)))
                .forEach(e -> out.add(start instanceof CaptureStart.AcceptGap
                        ? new HistoryRecord.Gap(e.getKey(), e.getValue(), now)
                        : new HistoryRecord.Complete(e.getKey(), e.getValue(), start instanceof CaptureStart.Fresh ? INITIAL : RESNAPSHOT, now)));
        return out;
    }
}
