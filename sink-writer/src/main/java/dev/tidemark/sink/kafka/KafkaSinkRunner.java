package dev.tidemark.sink.kafka;

import static dev.tidemark.sink.kafka.Pending.nextOffsets;

import dev.tidemark.event.EnvelopeDecoder;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.OffsetsFencedException;
import dev.tidemark.sink.jdbc.PartitionOffset;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink writer's consumer loop: polls change events, decodes them and applies each poll as one target
 * transaction together with the next offsets (see {@link JdbcChangeSink}).
 *
 * <p>Threads: {@link #run()} is called by exactly one thread, the consumer thread, which owns the consumer and
 * the decoder. Applying runs on one apply thread owned by the runner, so that polling and decoding batch N+1
 * overlap with the target writing batch N. At most one batch is in flight: before the consumer thread hands over
 * the next batch, before any partition is revoked or assigned, and before the loop ends, it waits until the batch
 * in flight has committed (or failed), so the sink is never used by two threads at once and the target's offsets
 * are current whenever they are read. Memory stays bounded by two batches plus the consumer's fetch buffers.
 *
 * <p>Offsets: Kafka auto-commit is off and {@code auto.offset.reset=none}; on every partition assignment the
 * consumer seeks where {@link StartPositions} decides from the offsets stored in the target (a replay never moves a
 * partition forward past unapplied records; records deleted by retention before the target applied them stop the
 * sink), so the target alone decides where consumption resumes. Kafka-side commits are informational (for lag
 * tools) and never made for partitions this member lost ({@code onPartitionsLost}).
 *
 * <p>Fencing: offset writes are compare-and-set against what this member last read or wrote. A member that lost its
 * partitions finds them moved by the new owner: its batch rolls back ({@link OffsetsFencedException}), the batch it
 * polled next is dropped, and it seeks to the stored offsets again; it never moves a stored offset backwards.
 *
 * <p>{@link #requestStop()} may be called from any thread: the batch in flight is committed, then the loop ends, the
 * consumer leaves the group (static members too) and the sink is closed. A batch that fails ends the loop with that
 * failure; nothing of it was committed.
 */
public final class KafkaSinkRunner implements Runnable, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(KafkaSinkRunner.class);

    private final SinkSettings settings;
    private final JdbcChangeSink sink;
    private final EnvelopeDecoder decoder = new EnvelopeDecoder();
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<TopicPartition, Long> applied = new ConcurrentHashMap<>();
    /** Per partition: the offset it was last positioned at (stored, replayed from, or decided for a new target). */
    private final Map<TopicPartition, Long> positioned = new ConcurrentHashMap<>();
    private final IsolatingApply applier;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean stopping;
    private final boolean replaying;
    private final PartitionPositioner positioner;
    private final AtomicLong fencedBatches = new AtomicLong();
    /** Consumer thread only: a batch was fenced; what was polled after it is dropped and positions are re-read. */
    private boolean rewindNeeded;
    private volatile Throwable failure;
    private BatchInFlight inFlight;
    /** Consumer thread only: a failure of the batch in flight noticed inside a rebalance callback. */
    private RuntimeException pendingFailure;
    private final RebalanceHandler rebalance;
    private final GroupCoverage coverage;
    private final List<AutoCloseable> resources = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile SinkMetrics metrics = SinkMetrics.NONE;
    /** The pipeline file as the user named it, put into the commands messages suggest ({@link ConfigFileMention}). */
    private volatile String configFile;

    public KafkaSinkRunner(SinkSettings settings, JdbcChangeSink sink) {
        this.settings = settings;
        this.sink = sink;
        this.applier = new IsolatingApply(settings, sink, () -> metrics);
        this.replaying = !(settings.replayFrom() instanceof ReplayFrom.Stored);
        this.consumer = new KafkaConsumer<>(SinkConsumerConfig.properties(settings), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.positioner = new PartitionPositioner(consumer, sink, settings);
        this.coverage = new GroupCoverage(consumer, settings);
        this.rebalance = new RebalanceHandler(this::finishInFlightQuietly, this::positionOrStop, e -> pendingFailure = e,
                consumer, settings.groupId(), replaying, applied, coverage::assignmentChanged);
        resources.add(coverage);
    }

    /**
     * For partitions the target has no stored offset for, starts where capture's history topic {@code historyTopic}
     * says the complete history begins, or refuses ({@link NewTargetStart}); {@code configLabel} (the pipeline file, or
     * null) is named in the way on. Before {@link #run()}; returns this.
     */
    public KafkaSinkRunner withHistory(String historyTopic, String configLabel) {
        positioner.history(historyTopic, configLabel);
        return this;
    }

    @Override
    public void run() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("sink " + settings.groupId() + " already ran");
        }
        inFlight = new BatchInFlight(settings.groupId());
        try {
            consumer.subscribe(settings.topics(), rebalance);
            log.info("sink {} consuming {} into {} target", settings.groupId(), settings.topics(), sink.dialect().name());
            while (!stopping) {
                ConsumerRecords<byte[], byte[]> records = poll();
                coverage.checkIfDue();
                if (records.isEmpty()) {
                    finishInFlight(true);
                } else {
                    int generation = consumer.groupMetadata().generationId();
                    List<Pending> items = Pending.decode(decoder, records);
                    finishInFlight(true);
                    if (!rewindNeeded && generation != consumer.groupMetadata().generationId()) {
                        // removed from the group meanwhile: never apply these records as if they were still ours
                        log.warn("sink {}: left the group while a batch was applied (longer than max.poll.interval.ms?);"
                                + " dropping {} polled records and re-reading the stored offsets", settings.groupId(), items.size());
                        rewindNeeded = true;
                    }
                    if (!rewindNeeded) {
                        inFlight.submit(() -> applyDecoded(items));
                    }
                }
                if (rewindNeeded) {
                    rewindNeeded = false;
                    positionOrStop(consumer.assignment(), Set.of());
                }
            }
        } catch (WakeupException e) {
            if (!stopping) {
                failure = e;
            }
        } catch (Throwable t) {
            failure = t;
        } finally {
            try {
                finishInFlight(true);
            } catch (Throwable t) {
                if (failure == null) {
                    failure = t;
                }
            }
            inFlight.shutdown();
            if (failure != null) {
                log.error("sink {} stopped: {}", settings.groupId(), ConfigFileMention.fill(failure.getMessage(), configFile));
            }
            releaseAll();
            log.info("sink {} stopped after applying {} events", settings.groupId(), applier.eventsApplied());
        }
    }

    /**
     * Consumer thread: one poll. A failure kept from a rebalance callback wins over what the poll threw; a position
     * Kafka no longer has (retention overtook the sink) is decided like a new assignment: a stop naming the offsets,
     * or, where the user accepted the gap, a seek to the earliest offset.
     */
    private ConsumerRecords<byte[], byte[]> poll() {
        ConsumerRecords<byte[], byte[]> records;
        try {
            records = consumer.poll(settings.pollTimeout());
        } catch (OffsetOutOfRangeException e) {
            throwPendingFailure();
            finishInFlight(true);
            positionOrStop(e.partitions(), Set.of()); // positions Kafka no longer has: decided like an assignment
            return ConsumerRecords.empty();
        } catch (FencedInstanceIdException e) {
            throw new SinkPositionException("sink " + settings.groupId() + ": another process joined the group with this member's"
                    + " group.instance.id " + SinkConsumerConfig.properties(settings).get("group.instance.id") + ", so this one stops;"
                    + " give every running member of a pipeline its own member id (tidemark sink --member-id)", e);
        } catch (RuntimeException e) {
            throwPendingFailure();
            throw e;
        }
        throwPendingFailure();
        SinkReport.fetched(metrics, consumer);
        return records;
    }

    /** Consumer thread: seeks {@code partitions} where {@link StartPositions} decides, or stops the sink naming why. */
    private void positionOrStop(Collection<TopicPartition> partitions, Set<TopicPartition> replay) {
        StartPositions.Decision decision = positioner.position(partitions, replay);
        if (decision instanceof StartPositions.Refuse refuse) {
            throw new SinkPositionException("sink " + settings.groupId() + ": " + refuse.reason());
        }
        if (decision instanceof StartPositions.Seek seek) {
            positioned.putAll(seek.offsets());
        }
    }

    /** Apply thread: applies one decoded poll and returns the offsets it committed to the target. */
    private Map<TopicPartition, OffsetAndMetadata> applyDecoded(List<Pending> items) {
        applier.apply(items);
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        for (PartitionOffset o : nextOffsets(items)) {
            TopicPartition tp = new TopicPartition(o.topic(), o.partition());
            applied.put(tp, o.nextOffset());
            commit.put(tp, new OffsetAndMetadata(o.nextOffset()));
        }
        SinkReport.partitions(metrics, items);
        return commit;
    }

    /**
     * Consumer thread: waits until the batch in flight has committed to the target, then, if {@code toKafka} (the
     * partitions are still this member's), commits its offsets to Kafka (informational only: the target's
     * tidemark_offsets is what the sink resumes from). Rethrows the batch's failure; a fenced batch is no failure
     * (another member owns its partitions now): it is logged and the positions are re-read before the next batch.
     */
    private void finishInFlight(boolean toKafka) {
        Map<TopicPartition, OffsetAndMetadata> commit;
        try {
            commit = inFlight.await();
        } catch (OffsetsFencedException fenced) {
            fencedBatches.incrementAndGet();
            rewindNeeded = true;
            log.warn("sink {}: {}", settings.groupId(), fenced.getMessage());
            return;
        }
        if (toKafka && !commit.isEmpty()) {
            consumer.commitAsync(commit, null);
        }
    }

    /** Closes the consumer (leaving the group: a static member's partitions move at once), the sink and the rest. */
    private void releaseAll() {
        try {
            consumer.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                    .withTimeout(Duration.ofSeconds(5)));
        } catch (RuntimeException e) {
            log.warn("closing consumer failed: {}", e.getMessage());
        }
        sink.close();
        applier.close();
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                log.warn("closing {} failed: {}", r, e.getMessage());
            }
        }
        finished.countDown();
    }

    /** Consumer thread, inside a rebalance callback: like {@link #finishInFlight}, keeping a failure for later. */
    private boolean finishInFlightQuietly(boolean toKafka) {
        try {
            finishInFlight(toKafka);
            return pendingFailure == null;
        } catch (RuntimeException e) {
            pendingFailure = e;
            return false;
        }
    }

    private void throwPendingFailure() {
        RuntimeException e = pendingFailure;
        if (e != null) {
            pendingFailure = null;
            throw e;
        }
    }

    /** Closes {@code resource} (for example the claim on this member's id) when the runner has stopped; returns this. */
    public KafkaSinkRunner alsoClosing(AutoCloseable resource) {
        resources.add(resource);
        return this;
    }

    /**
     * Names {@code advice} as the way on after records the target never applied are gone from a topic (retention, a
     * re-created topic), instead of the repair of the whole target. Before {@link #run()}; returns this.
     */
    public KafkaSinkRunner withGapAdvice(GapAdvice advice) {
        positioner.gapAdvice(advice);
        return this;
    }

    /**
     * Names {@code advice} as the way on when a target table the sink wrote is dropped while it runs, instead of
     * {@link dev.tidemark.sink.jdbc.DroppedTableAdvice#RESTORE}. Before {@link #run()}; returns this.
     */
    public KafkaSinkRunner withDroppedTableAdvice(dev.tidemark.sink.jdbc.DroppedTableAdvice advice) {
        sink.withDroppedTableAdvice(advice);
        return this;
    }

    /** Reports to {@code metrics} from now on (before {@link #run()}); returns this. */
    public KafkaSinkRunner withMetrics(SinkMetrics metrics) {
        this.metrics = java.util.Objects.requireNonNull(metrics);
        return this;
    }

    /** Names {@code configFile} (the pipeline file as the user named it, or null) in the commands its lines suggest. */
    public KafkaSinkRunner withConfigFile(String configFile) {
        this.configFile = configFile;
        return this;
    }

    /** Records sent to the dead-letter topic so far. */
    public long deadLettered() {
        return applier.deadLettered();
    }

    /** Asks the loop to finish the batch in flight, commit it and stop. Safe from any thread; idempotent. */
    public void requestStop() {
        stopping = true;
        consumer.wakeup();
    }

    /** Waits for the loop to end; true if it ended within the timeout. */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public boolean isFinished() {
        return finished.getCount() == 0;
    }

    /** Why the loop ended, if it failed. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** The partitions this member of the consumer group owns now (seeked to their target offsets). */
    public Set<TopicPartition> assignment() {
        return rebalance.assigned();
    }

    /** The next offset per partition committed to the target by this runner so far. */
    public Map<TopicPartition, Long> appliedOffsets() {
        return Map.copyOf(applied);
    }

    /**
     * Per partition: how far this runner has got, the offset after its last applied batch or, before one, the offset
     * it was positioned at; a partition it has not been positioned on is absent.
     */
    public Map<TopicPartition, Long> reachedOffsets() {
        Map<TopicPartition, Long> out = new HashMap<>(positioned);
        applied.forEach((tp, o) -> out.merge(tp, o, Math::max));
        return out;
    }

    public long eventsApplied() {
        return applier.eventsApplied();
    }

    /** Batches rolled back because another member had moved their partitions' stored offsets (see fencing above). */
    public long fencedBatches() {
        return fencedBatches.get();
    }

    @Override
    public void close() throws InterruptedException {
        if (started.compareAndSet(false, true)) {
            releaseAll(); // never ran: release the consumer and the target connection here
            finished.countDown();
            return;
        }
        requestStop();
        awaitTermination(Duration.ofSeconds(60));
    }
}
