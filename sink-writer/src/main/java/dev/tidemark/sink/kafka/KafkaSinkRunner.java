package dev.tidemark.sink.kafka;

import dev.tidemark.sink.event.ChangeEvent;
import dev.tidemark.sink.event.EnvelopeDecoder;
import dev.tidemark.sink.event.EventOrigin;
import dev.tidemark.sink.event.PoisonEventException;
import dev.tidemark.sink.jdbc.SinkException;
import dev.tidemark.sink.jdbc.ApplyResult;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.PartitionOffset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
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
 * <p>Offsets: Kafka auto-commit is off; on every partition assignment the consumer seeks to the offsets stored in
 * the target (the beginning for a partition the target has never seen), so the target alone decides where
 * consumption resumes. Kafka-side commits are informational (for lag tools). {@link #requestStop()} may be called
 * from any thread: the batch in flight is committed, then the loop ends and the consumer and sink are closed. A
 * batch that fails ends the loop with that failure; nothing of it was committed.
 */
public final class KafkaSinkRunner implements Runnable, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(KafkaSinkRunner.class);

    private final SinkSettings settings;
    private final JdbcChangeSink sink;
    private final EnvelopeDecoder decoder = new EnvelopeDecoder();
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<TopicPartition, Long> applied = new ConcurrentHashMap<>();
    private final AtomicLong eventsApplied = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();
    private KafkaProducer<byte[], byte[]> deadLetterProducer;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean stopping;
    private final boolean replaying;
    private volatile Throwable failure;
    /** Consumer thread only: the batch being applied, at most one. */
    private Future<Map<TopicPartition, OffsetAndMetadata>> inFlight;
    /** Consumer thread only: a failure of the batch in flight noticed inside a rebalance callback. */
    private RuntimeException pendingFailure;
    private ExecutorService applier;
    private volatile Set<TopicPartition> assigned = Set.of();

    public KafkaSinkRunner(SinkSettings settings, JdbcChangeSink sink) {
        this.settings = settings;
        this.sink = sink;
        this.replaying = !(settings.replayFrom() instanceof ReplayFrom.Stored);
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, settings.groupId());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(settings.maxBatch()));
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "tidemark-sink-" + settings.groupId());
        p.putAll(settings.extra());
        this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public void run() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("sink " + settings.groupId() + " already ran");
        }
        applier = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tidemark-apply-" + settings.groupId());
            t.setDaemon(true);
            return t;
        });
        try {
            consumer.subscribe(settings.topics(), new SeekToStoredOffsets());
            log.info("sink {} consuming {} into {} target", settings.groupId(), settings.topics(), sink.dialect().name());
            while (!stopping) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(settings.pollTimeout());
                throwPendingFailure();
                if (records.isEmpty()) {
                    finishInFlight();
                } else {
                    List<Pending> items = decode(records);
                    finishInFlight();
                    inFlight = applier.submit(() -> applyDecoded(items));
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
                finishInFlight();
            } catch (Throwable t) {
                if (failure == null) {
                    failure = t;
                }
            }
            applier.shutdown();
            if (failure != null) {
                log.error("sink {} stopped: {}", settings.groupId(), failure.getMessage());
            }
            try {
                consumer.close(Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                log.warn("closing consumer failed: {}", e.getMessage());
            }
            sink.close();
            if (deadLetterProducer != null) {
                deadLetterProducer.close(Duration.ofSeconds(5));
            }
            finished.countDown();
            log.info("sink {} stopped after applying {} events", settings.groupId(), eventsApplied.get());
        }
    }

    /** A polled record with its decoded event, or the reason it could not be decoded. */
    private record Pending(ConsumerRecord<byte[], byte[]> record, ChangeEvent event, RuntimeException failure) {
        EventOrigin origin() {
            return new EventOrigin(record.topic(), record.partition(), record.offset(), record.key());
        }
    }

    /** Consumer thread: decodes a poll; undecodable records are kept with the reason, to be isolated when applied. */
    private List<Pending> decode(ConsumerRecords<byte[], byte[]> records) {
        List<Pending> items = new ArrayList<>(records.count());
        for (ConsumerRecord<byte[], byte[]> r : records) {
            try {
                items.add(new Pending(r, decoder.decode(new EventOrigin(r.topic(), r.partition(), r.offset(), r.key()), r.key(), r.value()), null));
            } catch (PoisonEventException e) {
                items.add(new Pending(r, null, e));
            }
        }
        return items;
    }

    /** Apply thread: applies one decoded poll and returns the offsets it committed to the target. */
    private Map<TopicPartition, OffsetAndMetadata> applyDecoded(List<Pending> items) {
        applyIsolating(items);
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        for (PartitionOffset o : nextOffsets(items)) {
            TopicPartition tp = new TopicPartition(o.topic(), o.partition());
            applied.put(tp, o.nextOffset());
            commit.put(tp, new OffsetAndMetadata(o.nextOffset()));
        }
        return commit;
    }

    /**
     * Consumer thread: waits until the batch in flight has committed to the target, then commits its offsets to
     * Kafka (informational only: the target's tidemark_offsets is what the sink resumes from). Rethrows the batch's
     * failure.
     */
    private void finishInFlight() {
        Future<Map<TopicPartition, OffsetAndMetadata>> batch = inFlight;
        if (batch == null) {
            return;
        }
        inFlight = null;
        Map<TopicPartition, OffsetAndMetadata> commit;
        try {
            commit = batch.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // the batch still commits or fails on its own; wait for it without being interruptible
            commit = awaitUninterruptibly(batch);
        } catch (ExecutionException e) {
            throw asUnchecked(e.getCause());
        }
        if (commit != null && !commit.isEmpty()) {
            consumer.commitAsync(commit, null);
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> awaitUninterruptibly(Future<Map<TopicPartition, OffsetAndMetadata>> batch) {
        while (true) {
            try {
                return batch.get();
            } catch (InterruptedException again) {
                // keep waiting: the sink must not be closed under a running batch
            } catch (ExecutionException e) {
                throw asUnchecked(e.getCause());
            }
        }
    }

    private static RuntimeException asUnchecked(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new SinkException("applying a batch failed: " + t, t);
    }

    /** Consumer thread, inside a rebalance callback: like {@link #finishInFlight()}, keeping a failure for later. */
    private boolean finishInFlightQuietly() {
        try {
            finishInFlight();
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

    /**
     * Applies the records in order. Undecodable records, and records the target rejects by themselves (a constraint
     * or data rule: {@link dev.tidemark.sink.jdbc.Failure.RowRejected}), are isolated (the rest of the batch is applied around them, halving the failed part until the
     * single culprit is found) and handed to {@link #poison}; each applied part commits with its own offsets.
     */
    private void applyIsolating(List<Pending> items) {
        if (items.isEmpty()) {
            return;
        }
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).failure() != null) {
                applyIsolating(items.subList(0, i));
                poison(items.get(i), items.get(i).failure());
                applyIsolating(items.subList(i + 1, items.size()));
                return;
            }
        }
        List<ChangeEvent> events = items.stream().map(Pending::event).toList();
        try {
            ApplyResult result = sink.apply(events, nextOffsets(items));
            eventsApplied.addAndGet(events.size());
            log.debug("applied {}", result);
        } catch (SinkException e) {
            if (!e.isRowRejected()) {
                // a fault of the target (privilege, missing table, disk full, ...) or transient retries exhausted: stop,
                // nothing of this part was committed and nothing is dead-lettered; only a row the target rejects by
                // itself is isolated as poison
                throw e;
            }
            if (items.size() == 1) {
                poison(items.get(0), e);
                return;
            }
            int half = items.size() / 2;
            applyIsolating(items.subList(0, half));
            applyIsolating(items.subList(half, items.size()));
        }
    }

    /**
     * A record that cannot be applied: without a dead-letter topic the sink stops naming it (its offset is not
     * passed); with one, the record goes there with the reason in headers, and only after Kafka acknowledged it is
     * the offset moved past it.
     */
    private void poison(Pending p, RuntimeException reason) {
        String why = reason instanceof PoisonEventException pe ? pe.getMessage().substring(pe.origin().describe().length() + 2)
                : reason.getMessage();
        if (settings.deadLetterTopic() == null) {
            throw new PoisonEventException(p.origin(), why + " (no dead-letter topic configured; offsets not advanced)", reason);
        }
        ProducerRecord<byte[], byte[]> dead = new ProducerRecord<>(settings.deadLetterTopic(), null, p.record().key(), p.record().value());
        dead.headers().add("tidemark.error", utf8(why));
        dead.headers().add("tidemark.source.topic", utf8(p.record().topic()));
        dead.headers().add("tidemark.source.partition", utf8(Integer.toString(p.record().partition())));
        dead.headers().add("tidemark.source.offset", utf8(Long.toString(p.record().offset())));
        dead.headers().add("tidemark.pipeline", utf8(settings.groupId()));
        try {
            deadLetters().send(dead).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PoisonEventException(p.origin(), "interrupted while writing to dead-letter topic " + settings.deadLetterTopic(), e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new PoisonEventException(p.origin(), "dead-letter topic " + settings.deadLetterTopic() + " did not acknowledge: "
                    + e.getCause().getMessage(), e.getCause());
        }
        sink.apply(List.of(), nextOffsets(List.of(p)));
        deadLettered.incrementAndGet();
        log.warn("{} sent to dead-letter topic {}: {}", p.origin().describe(), settings.deadLetterTopic(), why);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private KafkaProducer<byte[], byte[]> deadLetters() {
        if (deadLetterProducer == null) {
            Properties p = new Properties();
            p.putAll(settings.extra());
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
            p.put(ProducerConfig.CLIENT_ID_CONFIG, "tidemark-dlq-" + settings.groupId());
            deadLetterProducer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        }
        return deadLetterProducer;
    }

    private static List<PartitionOffset> nextOffsets(List<Pending> items) {
        Map<TopicPartition, PartitionOffset> next = new LinkedHashMap<>();
        for (Pending p : items) {
            ConsumerRecord<byte[], byte[]> r = p.record();
            next.put(new TopicPartition(r.topic(), r.partition()), new PartitionOffset(r.topic(), r.partition(), r.offset() + 1));
        }
        return new ArrayList<>(next.values());
    }

    /** Records sent to the dead-letter topic so far. */
    public long deadLettered() {
        return deadLettered.get();
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
        return assigned;
    }

    /** The next offset per partition committed to the target by this runner so far. */
    public Map<TopicPartition, Long> appliedOffsets() {
        return Map.copyOf(applied);
    }

    public long eventsApplied() {
        return eventsApplied.get();
    }

    @Override
    public void close() throws InterruptedException {
        if (started.compareAndSet(false, true)) {
            // never ran: release the consumer and the target connection here
            consumer.close(Duration.ofSeconds(5));
            sink.close();
            if (deadLetterProducer != null) {
                deadLetterProducer.close(Duration.ofSeconds(5));
            }
            finished.countDown();
            return;
        }
        requestStop();
        awaitTermination(Duration.ofSeconds(60));
    }

    /** Seeks every assigned partition to the target's stored offset, or applies a one-off replay position. */
    private final class SeekToStoredOffsets implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            // the batch in flight commits before another member may take these partitions over
            finishInFlightQuietly();
            Set<TopicPartition> left = new HashSet<>(assigned);
            left.removeAll(partitions);
            assigned = Set.copyOf(left);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            // the target's offsets are read below: the batch in flight must have committed first
            if (!finishInFlightQuietly() || partitions.isEmpty()) {
                return;
            }
            // A replay applies to each partition until this runner has committed a batch of it, so a rebalance
            // that re-assigns a partition before then replays it again instead of skipping to stored offsets.
            List<TopicPartition> toReplay = !replaying ? List.of()
                    : partitions.stream().filter(tp -> !applied.containsKey(tp)).toList();
            if (!toReplay.isEmpty()) {
                replay(toReplay);
            }
            Map<String, Map<Integer, Long>> stored = sink.storedOffsets();
            List<TopicPartition> fresh = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                if (toReplay.contains(tp)) {
                    continue;
                }
                Long offset = stored.getOrDefault(tp.topic(), Map.of()).get(tp.partition());
                if (offset == null) {
                    fresh.add(tp);
                } else {
                    consumer.seek(tp, offset);
                }
            }
            if (!fresh.isEmpty()) {
                consumer.seekToBeginning(fresh);
            }
            Set<TopicPartition> now = new HashSet<>(assigned);
            now.addAll(partitions);
            assigned = Set.copyOf(now);
            log.info("sink {} assigned {} ({} replayed, {} resumed from target offsets, {} new)", settings.groupId(), partitions,
                    toReplay.size(), partitions.size() - toReplay.size() - fresh.size(), fresh.size());
        }

        private void replay(Collection<TopicPartition> partitions) {
            ReplayFrom replay = settings.replayFrom();
            if (replay instanceof ReplayFrom.Earliest) {
                consumer.seekToBeginning(partitions);
            } else if (replay instanceof ReplayFrom.Since since) {
                Map<TopicPartition, Long> query = new HashMap<>();
                partitions.forEach(tp -> query.put(tp, since.timestamp().toEpochMilli()));
                Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
                List<TopicPartition> toEnd = new ArrayList<>();
                for (TopicPartition tp : partitions) {
                    OffsetAndTimestamp ot = found.get(tp);
                    if (ot == null) {
                        toEnd.add(tp);
                    } else {
                        consumer.seek(tp, ot.offset());
                    }
                }
                if (!toEnd.isEmpty()) {
                    consumer.seekToEnd(toEnd); // an empty list would mean every assigned partition
                }
            } else if (replay instanceof ReplayFrom.Offsets offsets) {
                Map<String, Map<Integer, Long>> stored = sink.storedOffsets();
                for (TopicPartition tp : partitions) {
                    Long o = offsets.offsets().get(tp.topic() + ":" + tp.partition());
                    if (o == null) {
                        o = offsets.offsets().get(Integer.toString(tp.partition()));
                    }
                    if (o == null) {
                        o = stored.getOrDefault(tp.topic(), Map.of()).get(tp.partition());
                    }
                    if (o == null) {
                        consumer.seekToBeginning(List.of(tp));
                    } else {
                        consumer.seek(tp, o);
                    }
                }
            }
            log.info("sink {} replaying {} from {}", settings.groupId(), partitions, replay);
        }
    }
}
