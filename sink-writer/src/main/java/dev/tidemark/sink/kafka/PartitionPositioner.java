package dev.tidemark.sink.kafka;

import dev.tidemark.sink.jdbc.JdbcChangeSink;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The I/O around {@link StartPositions}: reads the target's stored offsets (which also sets the sink's offset fence,
 * see {@link JdbcChangeSink#storedOffsets()}), the partitions' log start and end offsets and, for a timestamp replay,
 * the first offset at or after the instant; then seeks, or returns the refusal. Consumer thread only, with no batch in
 * flight (the target's offsets must be current).
 */
final class PartitionPositioner {
    private static final Logger log = LoggerFactory.getLogger(PartitionPositioner.class);

    private final Consumer<byte[], byte[]> consumer;
    private final JdbcChangeSink sink;
    private final SinkSettings settings;
    /** The pipeline's history topic (null: none, see {@link TopicHistory.NotKept}), and the pipeline file for messages. */
    private String historyTopic;
    private String configLabel;
    /** The way on after records the target never applied are gone ({@link GapAdvice#REPAIR} unless the pipeline gives its own). */
    private GapAdvice gapAdvice = GapAdvice.REPAIR;

    PartitionPositioner(Consumer<byte[], byte[]> consumer, JdbcChangeSink sink, SinkSettings settings) {
        this.consumer = consumer;
        this.sink = sink;
        this.settings = settings;
    }

    /** Reads {@code topic} for partitions the target never stored; names {@code configLabel} (or null) in the way on. */
    void history(String topic, String configLabel) {
        this.historyTopic = topic;
        this.configLabel = configLabel;
    }

    /** Names {@code advice}'s way on in refusals and warnings about records gone before the target applied them. */
    void gapAdvice(GapAdvice advice) {
        this.gapAdvice = java.util.Objects.requireNonNull(advice, "advice");
    }

    /**
     * Seeks {@code partitions} where {@link StartPositions} decides ({@code replaying}: those the replay request applies
     * to). Returns the decision; on {@link StartPositions.Refuse} nothing was sought.
     */
    StartPositions.Decision position(Collection<TopicPartition> partitions, Set<TopicPartition> replaying) {
        if (partitions.isEmpty()) {
            return new StartPositions.Seek(Map.of(), java.util.List.of());
        }
        Map<TopicPartition, Long> stored = new HashMap<>();
        sink.storedOffsets().forEach((topic, byPartition) -> byPartition.forEach((p, o) -> stored.put(new TopicPartition(topic, p), o)));
        Map<TopicPartition, Long> start = consumer.beginningOffsets(partitions);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        Map<TopicPartition, Long> hits = new HashMap<>();
        if (settings.replayFrom() instanceof ReplayFrom.Since since && !replaying.isEmpty()) {
            Map<TopicPartition, Long> query = new HashMap<>();
            replaying.forEach(tp -> query.put(tp, since.timestamp().toEpochMilli()));
            Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
            found.forEach((tp, ot) -> {
                if (ot != null) {
                    hits.put(tp, ot.offset());
                }
            });
        }
        boolean unstored = partitions.stream().anyMatch(tp -> !stored.containsKey(tp) && !replaying.contains(tp));
        TopicHistory history = unstored ? HistoryReader.read(settings, historyTopic) : TopicHistory.NONE;
        StartPositions.Decision decision = StartPositions.decide(new StartPositions.Inputs(partitions, stored, start, end,
                settings.replayFrom(), replaying, hits, history), settings.acceptRetentionGap(), settings.skipUnapplied(), gapAdvice);
        if (decision instanceof StartPositions.Refuse refuse && configLabel != null) {
            return new StartPositions.Refuse(refuse.reason().replace(NewTargetStart.WAY_ON,
                    NewTargetStart.WAY_ON.replace("<pipeline file>", configLabel)));
        }
        if (decision instanceof StartPositions.Seek seek) {
            RetentionGaps.record(sink, settings.groupId(), seek.gaps());
            seek.offsets().forEach(consumer::seek);
            seek.notes().forEach(n -> log.info("sink {}: {}", settings.groupId(), n));
            seek.warnings().forEach(w -> log.warn("sink {}: {}", settings.groupId(), ConfigFileMention.fill(w, configLabel)));
            log.info("sink {} positioned {}{}", settings.groupId(), seek.offsets(),
                    replaying.isEmpty() ? "" : " (replay from " + settings.replayFrom() + " for " + replaying + ")");
        }
        return decision;
    }
}
