package dev.tidemark.sink.kafka;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's rebalance callbacks (consumer thread, inside {@code poll}):
 * <ul>
 *   <li>revoked: the batch in flight commits (target, then informational Kafka commit) before another member may take
 *       the partitions over;</li>
 *   <li>lost: the batch in flight is waited for but nothing is committed to Kafka, and its target offsets are fenced
 *       if the new owner moved on;</li>
 *   <li>assigned: {@code onAssigned} runs (every assignment, an empty one too); the batch in flight has committed, then every partition is positioned by {@link StartPositions}
 *       (replaying only those of which this runner has not committed a batch yet); a refusal pauses them and is kept,
 *       to be thrown after the poll.</li>
 * </ul>
 */
final class RebalanceHandler implements ConsumerRebalanceListener {
    private static final Logger log = LoggerFactory.getLogger(RebalanceHandler.class);

    private final Predicate<Boolean> settleInFlight;
    private final BiConsumer<Collection<TopicPartition>, Set<TopicPartition>> positionOrStop;
    private final java.util.function.Consumer<RuntimeException> fail;
    private final Consumer<byte[], byte[]> consumer;
    private final String group;
    private final boolean replaying;
    private final Map<TopicPartition, Long> applied;
    private final Runnable onAssigned;
    private volatile Set<TopicPartition> assigned = Set.of();

    /**
     * @param settleInFlight waits for the batch in flight (argument true: also commit its offsets to Kafka); false if it
     *                       failed (the failure is kept by the runner)
     * @param positionOrStop seeks partitions where {@link StartPositions} decides (second argument: those replaying),
     *                       or throws the refusal as a one-line exception
     * @param fail           keeps a failure, to be thrown after the poll
     * @param onAssigned     told of every assignment, before the partitions are positioned
     */
    RebalanceHandler(Predicate<Boolean> settleInFlight, BiConsumer<Collection<TopicPartition>, Set<TopicPartition>> positionOrStop,
                     java.util.function.Consumer<RuntimeException> fail, Consumer<byte[], byte[]> consumer, String group,
                     boolean replaying, Map<TopicPartition, Long> applied, Runnable onAssigned) {
        this.settleInFlight = settleInFlight;
        this.positionOrStop = positionOrStop;
        this.fail = fail;
        this.consumer = consumer;
        this.group = group;
        this.replaying = replaying;
        this.applied = applied;
        this.onAssigned = onAssigned;
    }

    /** The partitions this member owns now, positioned. Safe from any thread. */
    Set<TopicPartition> assigned() {
        return assigned;
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        settleInFlight.test(true);
        forget(partitions);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        settleInFlight.test(false);
        forget(partitions);
        log.warn("sink {} lost {} (removed from the group); nothing committed for them", group, partitions);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        onAssigned.run();
        // the target's offsets are read below: the batch in flight must have committed first
        if (!settleInFlight.test(true) || partitions.isEmpty()) {
            return;
        }
        // A replay applies to each partition until this runner has committed a batch of it, so a rebalance that
        // re-assigns a partition before then replays it again instead of resuming at the stored offset.
        Set<TopicPartition> toReplay = !replaying ? Set.of() : Set.copyOf(partitions.stream().filter(tp -> !applied.containsKey(tp)).toList());
        try {
            positionOrStop.accept(partitions, toReplay);
        } catch (RuntimeException e) {
            consumer.pause(partitions);
            fail.accept(e);
            return;
        }
        Set<TopicPartition> now = new HashSet<>(assigned);
        now.addAll(partitions);
        assigned = Set.copyOf(now);
    }

    private void forget(Collection<TopicPartition> partitions) {
        Set<TopicPartition> left = new HashSet<>(assigned);
        left.removeAll(partitions);
        assigned = Set.copyOf(left);
    }
}
