package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Databases;
import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Captures a PostgreSQL source with the embedded Debezium (async) engine and the pgoutput plugin, and produces one
 * Kafka topic per table, keyed by primary key, values as Debezium envelopes in JSON with schemas.
 *
 * <p>Delivery: each batch the engine hands over is converted once (Connect data → JSON bytes in one pass,
 * {@link ConnectJsonWriter}), sent, and then every send future is awaited in order; only then is each record marked
 * processed with the engine. Debezium's own source offsets are flushed to a local file
 * ({@link PipelineConfig#offsetsFile()}) every second and on close, atomically and durably
 * ({@link DurableOffsetBackingStore}), so a crash can repeat events since the last flush (the sink is idempotent) but
 * never skips one. The replication slot keeps WAL until those offsets are flushed.
 *
 * <p>Start: before the engine runs, {@link CaptureStartup} compares the slot with the stored offsets and refuses
 * ({@link CaptureRefusedException}) when starting would lose changes silently, unless the user chose
 * {@link CaptureChoice#RESNAPSHOT} or {@link CaptureChoice#ACCEPT_GAP}. When capture starts without offsets, a
 * {@link PositionMarker} writes a logical decoding message once the slot exists; the consumer marks it processed
 * without sending it, so the engine stores offsets even when the snapshot had no rows. {@link Heartbeats} do the same
 * at {@code source.heartbeat.interval} while the captured tables are idle, so the slot does not retain other tables' WAL.
 * While it runs, {@link SourceTablesWatch} stops it with one line when a captured table changes in a way no row event
 * carries (a partition detached or attached with rows, a replica identity other than FULL).
 * Settings from {@code source.debezium} go to the engine first; none of them is one Tidemark sets
 * ({@link dev.tidemark.connector.config.DebeziumPassThrough} refuses those).
 *
 * <p>Lifecycle: {@link #start()} once, {@link #close()} from any thread (idempotent; flushes offsets; when capture
 * started without offsets it first waits, 30 s at most, until a position is stored).
 */
public final class DebeziumChangeSource implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DebeziumChangeSource.class);

    /** The pipeline; {@link #start} widens its excluded columns by the metadata columns of Tidemark targets. */
    private PipelineConfig config;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong produced = new AtomicLong();
    /** Per partition: the offset after the last record Kafka acknowledged ({@link #sentEnds()}). */
    private final Map<TopicPartition, Long> sentEnds = new ConcurrentHashMap<>();
    private final Callback recordEnd = (m, e) -> {
        if (e == null && m != null && m.hasOffset()) {
            sentEnds.merge(new TopicPartition(m.topic(), m.partition()), m.offset() + 1, Math::max);
        }
    };
    private final AtomicLong rowRecordsProduced = new AtomicLong();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "tidemark-capture");
        t.setDaemon(true);
        return t;
    });
    private KafkaProducer<byte[], byte[]> producer;
    private DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
    private volatile Throwable failure;
    /** Released when the connector task has started, or the engine has ended without starting it. */
    private final CountDownLatch tasksStarted = new CountDownLatch(1);
    private volatile boolean closed;
    private final CaptureChoice choice;
    private final String configLabel;
    /** The command that runs capture ({@code run} or {@code capture}), for the commands its lines name. */
    private volatile String command = "run";
    private final SourceSlots slots;
    private CaptureStart startMode;
    private PositionMarker marker;
    private CaptureLock lock;
    private SourceTablesWatch partitions;
    private final java.util.concurrent.atomic.AtomicBoolean engineClosed = new java.util.concurrent.atomic.AtomicBoolean();
    private SchemaChangeCapture schemaChanges;
    /** Keys the row changes Debezium sent without one ({@link CapturedKeys}). */
    private CapturedKeys keys;
    /** Set when a schema change stopped capture (see {@code ProducingConsumer#stopWithout}). */
    private volatile boolean stopping;
    private volatile CaptureMetrics metrics = CaptureMetrics.NONE;
    private RelationWatcher relationWatcher;

    /** How often {@link RelationWatcher} checks that the captured tables are the relations capture started with. */
    static final Duration RELATION_CHECK = Duration.ofSeconds(2);

    public DebeziumChangeSource(PipelineConfig config) {
        this(config, CaptureChoice.NONE, null);
    }

    /**
     * @param choice      what the user chose explicitly for a slot and offsets that disagree
     * @param configLabel the pipeline file as the user named it (for messages), or null
     */
    public DebeziumChangeSource(PipelineConfig config, CaptureChoice choice, String configLabel) {
        this.config = config;
        this.choice = choice;
        this.configLabel = configLabel;
        this.slots = new SourceSlots(config.source());
    }

    /**
     * Checks the source, decides how to start (or refuses with {@link CaptureRefusedException}), creates the topics
     * and starts the engine on its own thread.
     */
    public void start() {
        start(() -> { });
    }

    /** The captured tables' replica identities before the preflight may set FULL (empty when they cannot be read). */
    private Map<dev.tidemark.event.TableId, String> replicaIdentities() {
        try (java.sql.Connection c = slots.connect()) {
            return ReplicaIdentities.read(c, config.source().tables());
        } catch (java.sql.SQLException e) {
            return Map.of(); // the preflight reports the source itself
        }
    }

    /** Whether this start's initial snapshot ends with a sweep of every table ({@link InitialSnapshotSweep}). */
    private boolean snapshotSweeps() {
        return InitialSnapshotSweep.applies(startMode, config.source().debezium().getOrDefault("snapshot.mode", "initial"));
    }

    /** Records the identities the preflight replaced by FULL, so that {@code tidemark drop} can restore them. */
    private void recordReplacedIdentities(Map<dev.tidemark.event.TableId, String> before) {
        if (before.isEmpty()) {
            return;
        }
        try (java.sql.Connection c = slots.connect()) {
            ReplicaIdentities.recordChanged(config, before, ReplicaIdentities.read(c, config.source().tables()));
        } catch (java.sql.SQLException | IOException e) {
            throw new IllegalStateException("cannot record the replica identities replaced on the source in "
                    + ReplicaIdentities.fileFor(config) + ": " + e.getMessage(), e);
        }
    }

    /**
     * As {@link #start()}; {@code beforeChanges} runs once every check of the source and of Kafka passed and before
     * capture changes anything (replica identity, slot, topics, state directory) — e.g. opening the sink's target,
     * so that a refused start leaves nothing behind on either side. If it throws, capture does not start.
     */
    public void start(Runnable beforeChanges) {
        // every table's topic a valid, distinct Kafka topic name (pure, before any I/O)
        dev.tidemark.connector.config.TopicNames.requireValid(config.kafka(), config.source().tables());
        // a captured Tidemark target's own metadata columns are not captured; a clash with the sink's columns refused
        config = TidemarkTargetSources.excludingMetadata(config);
        // the source first (one line per problem, no Kafka needed), then the topics' partition counts, then changes
        // (the pipeline must not run already, and its slot and publication must be its own: CaptureGuard)
        CaptureGuard.refuseIfLocked(config);
        Map<dev.tidemark.event.TableId, String> identities = replicaIdentities();
        // before the preflight sets FULL back: a resumed table whose identity changed unseen stops here
        IdentityAtStartCheck.refuseIfChanged(config, slots, choice, identities, configLabel);
        java.util.concurrent.atomic.AtomicReference<Ownership.Verdict.Proceed> guard = new java.util.concurrent.atomic.AtomicReference<>();
        SourcePreflight.check(config.source(), TypeSupport.target(Databases.forUrl(config.target().jdbcUrl())), () -> {
            guard.set(CaptureGuard.check(config, slots, choice, configLabel));
            CaptureTopics.checkExisting(config);
            beforeChanges.run();
        });
        Ownership.Verdict.Proceed owned = guard.get();
        if (Files.isDirectory(config.stateDir())) { // held before a --resnapshot may drop the slot; else once the folder is made
            lock = CaptureLock.claim(config.stateDir(), config.name());
        }
        recordReplacedIdentities(identities);
        startMode = CaptureStartup.prepare(config, slots, choice, configLabel, command);
        CaptureTopology.Prepared topology = CaptureTopology.prepare(config, slots, startMode);
        Map<TableId, Long> relations = topology.relations();
        // before the topics and their first record: where a complete history starts
        CaptureHistory.record(config, startMode, topology.added().stream().map(config::topicFor).collect(java.util.stream.Collectors.toSet()));
        keys = CapturedKeys.start(config, configLabel, slots, relations);
        schemaChanges = SchemaChangeCapture.start(config, configLabel, slots);
        CaptureTopics.ensure(config);
        try {
            Files.createDirectories(config.stateDir());
        } catch (IOException e) {
            throw new IllegalStateException("cannot create state directory " + config.stateDir() + ": " + e.getMessage(), e);
        }
        if (lock == null) {
            lock = CaptureLock.claim(config.stateDir(), config.name());
        }
        CaptureGuard.commit(config, slots, owned);
        // the captured tables (and partitioned tables' trees) as the snapshot will find them, watched from now on
        partitions = SourceTablesWatch.start(config.source(), configLabel, this::stopWith, schemaChanges.truncateTrigger(),
                config.offsetsFile(), snapshotSweeps());
        producer = new KafkaProducer<>(producerProperties(), new ByteArraySerializer(), new ByteArraySerializer());
        engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
                .using(engineProperties())
                .notifying(new ProducingConsumer())
                .using(new DebeziumEngine.ConnectorCallback() {
                    @Override
                    public void taskStarted() {
                        tasksStarted.countDown();
                    }
                })
                .using((success, message, error) -> {
                    if (!success && !closed && failure == null) {
                        failure = CaptureFailures.explain(config, slots, configLabel, command, message, error);
                        if (!(failure instanceof CaptureRefusedException)) {
                            log.error("capture {} stopped: {}", config.name(), message);
                        }
                    }
                    tasksStarted.countDown();
                    stopped.countDown();
                })
                .build();
        executor.execute(engine);
        CaptureGuard.recordWhenCreated(config, slots, owned, this::isStopped);
        relationWatcher = RelationWatcher.start(config, slots, relations, RELATION_CHECK, configLabel, line -> {
            failure = new CaptureRefusedException(line);
            log.error("capture {}: {}", config.name(), line);
            close();
        });
        if (!(startMode instanceof CaptureStart.Resume) && !(startMode instanceof CaptureStart.AcceptGap g && !g.discardOffsets())) {
            marker = PositionMarker.start(config, slots, this::isStopped, configLabel, command);
        }
        log.info("capture {} started: {} → {}", config.name(), config.source().tables(), config.topics());
    }

    /** The producer's settings ({@link CaptureSettings#producer}). */
    Properties producerProperties() {
        return CaptureSettings.producer(config);
    }

    /** The engine's settings for the start decided in {@link #start()} ({@link CaptureSettings#engine}). */
    Properties engineProperties() {
        return CaptureSettings.engine(config, startMode);
    }

    /** Names {@code command} ({@code run}, the default, or {@code capture}) in the commands its lines suggest; returns this. */
    public DebeziumChangeSource withCommand(String command) {
        this.command = java.util.Objects.requireNonNull(command, "command");
        return this;
    }

    /** Reports to {@code metrics} from now on (before {@link #start()}); returns this. */
    public DebeziumChangeSource withMetrics(CaptureMetrics metrics) {
        this.metrics = java.util.Objects.requireNonNull(metrics);
        return this;
    }

    /** True once the connector task runs (snapshot or streaming) and until capture stops. */
    public boolean isRunning() {
        return tasksStarted.getCount() == 0 && !isStopped();
    }

    /**
     * True while capture streams from the slot: its task runs and Debezium's streaming metric {@code Connected} (JMX,
     * {@code debezium.postgres:type=connector-metrics,context=streaming,server=<topic prefix>}) is true; false during
     * the initial snapshot. Reads the in-process MBean only: no I/O.
     */
    public boolean isStreaming() {
        return isRunning() && StreamingMetric.connected(config.kafka().topicPrefix());
    }

    /** Events sent to Kafka and acknowledged so far. */
    public long eventsSent() {
        return sent.get();
    }

    /**
     * Events handed to the Kafka producer so far, acknowledged or not: never less than what a sink can have applied of
     * them, so {@code applied >= eventsProduced()} means a sink has caught up with everything capture produced.
     * ({@link #eventsSent()} is counted after the acks and can lag a fast sink.)
     */
    public long eventsProduced() {
        return produced.get();
    }

    /**
     * True once capture stopped on a change it cannot follow (a schema change's stop line): every record before that
     * change was sent and acknowledged ({@link #sentEnds()}), none from it on.
     */
    public boolean stoppedOnAChange() {
        return stopping;
    }

    /** Per partition capture sent to: the offset after the last record Kafka acknowledged so far. */
    public Map<TopicPartition, Long> sentEnds() {
        return Map.copyOf(sentEnds);
    }

    /**
     * Records of row changes (with the tombstones of deletes) handed to the Kafka producer so far: {@link #eventsProduced()}
     * without capture's control records (snapshot sweeps, schema changes), so the figure to report as changes captured.
     */
    public long rowRecordsProduced() {
        return rowRecordsProduced.get();
    }

    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    public boolean isStopped() {
        return stopped.getCount() == 0;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (partitions != null) {
            partitions.close();
        }
        try {
            if (engine != null) {
                // Stopping an engine that is still creating its tasks makes Debezium fail the start with a stack
                // trace; let the start finish (or fail) first, then stop it the ordinary way.
                if (!tasksStarted.await(30, TimeUnit.SECONDS)) {
                    log.warn("capture {} was still starting after 30 s; stopping it anyway", config.name());
                }
                if (marker != null) {
                    marker.awaitStoredPosition(Duration.ofSeconds(30), this::isStopped);
                }
                closeEngine();
                if (!stopped.await(60, TimeUnit.SECONDS)) {
                    log.warn("capture {} did not stop within 60 s", config.name());
                }
            }
        } catch (IOException e) {
            log.warn("closing capture engine failed: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (relationWatcher != null) {
                relationWatcher.close();
            }
            if (marker != null) {
                marker.stop();
            }
            executor.shutdownNow();
            if (producer != null) {
                producer.close(Duration.ofSeconds(10));
            }
            if (lock != null) {
                lock.close();
            }
            log.info("capture {} stopped after {} events", config.name(), sent.get());
        }
    }

    /** Stops the engine; an engine that already ended by itself (its failure is in {@link #failure()}) needs nothing. */
    private void closeEngine() throws IOException {
        if (!engineClosed.compareAndSet(false, true)) {
            return; // stopWith is closing it
        }
        try {
            // the engine's thread is interrupted only when a close it took left it waiting (EngineStopPlan)
            EngineStopPlan.Step end = EngineClose.stop(engine, wait -> stopped.await(wait.toNanos(), TimeUnit.NANOSECONDS),
                    () -> {
                        log.info("capture {}: the engine stopped but its thread had not ended {} s later (waiting for a polling task "
                                + "the stop dropped); interrupting it", config.name(), EngineClose.POLICY.grace().toSeconds());
                        executor.shutdownNow();
                    }, EngineClose.POLICY);
            if (end instanceof EngineStopPlan.GiveUp g) {
                log.warn("capture {}: stopping the engine: {}", config.name(), g.why());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops capture because continuing would lose changes silently ({@link SourceTablesWatch}): {@link #failure()} is
     * {@code why} from now on, and the engine stops the ordinary way (offsets of what Kafka acknowledged are stored).
     */
    private void stopWith(CaptureRefusedException why) {
        if (closed || isStopped()) {
            return;
        }
        failure = why;
        Thread t = new Thread(() -> {
            try {
                tasksStarted.await(30, TimeUnit.SECONDS);
                closeEngine();
            } catch (IOException | RuntimeException e) {
                log.warn("stopping capture {} failed: {}", config.name(), e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "tidemark-capture-stop");
        t.setDaemon(true);
        t.start();
    }

    /** Converts each record once, sends the batch, awaits every acknowledgement in order, then marks processed. */
    private final class ProducingConsumer implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {
        private final ConnectJsonWriter json = new ConnectJsonWriter();
        private final DeliveredPosition delivered = new DeliveredPosition(config.offsetsFile());
        private final ResumeSafeOffsets resumeSafe = new ResumeSafeOffsets();
        private final SnapshotFlow snapshots = new SnapshotFlow(config, snapshotSweeps());

        @Override
        public void handleBatch(List<RecordChangeEvent<SourceRecord>> records,
                                DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer) throws InterruptedException {
            if (stopping) {
                return; // a schema change stopped capture: nothing from it on is marked processed
            }
            List<Future<RecordMetadata>> acks = new ArrayList<>(records.size());
            int[] sizes = new int[records.size()];
            RuntimeException stop = null;
            List<Future<RecordMetadata>> sweeps = new ArrayList<>();
            snapshots.beginBatch();
            for (RecordChangeEvent<SourceRecord> r : records) {
                SourceRecord sr = r.record();
                SchemaChangeCapture.Handling schema = schemaChanges.handle(sr);
                if (schema instanceof SchemaChangeCapture.Stop s) {
                    stop = new IllegalStateException(s.line()); // the records before it are sent and marked; it is not
                    break;
                }
                if (schema instanceof SchemaChangeCapture.Send s) {
                    sendNow(s.records()); // a schema change goes to every partition, ahead of the rows after it
                    acks.add(null);
                    continue;
                }
                for (IncrementalSnapshotMarks.Ended ended : snapshots.observe(sr)) {
                    sweeps.add(sendSweep(ended));
                }
                if (snapshots.isSignal(sr)) {
                    acks.add(null); // the signal table's rows (signals, watermarks) are Debezium's, never sent
                    continue;
                }
                if (PositionMarker.isMarker(config, sr) || Heartbeats.isHeartbeat(sr)) {
                    // Tidemark's own position marker or heartbeat message, or Debezium's heartbeat: marked processed
                    // below (so its offset is stored and the slot moves on), never sent
                    acks.add(null);
                    continue;
                }
                KeyRestore.Outcome keyed = keys.restore(sr); // a row change Debezium sent without its key gets it back
                if (keyed instanceof KeyRestore.Stop s) {
                    stop = new IllegalStateException(s.line()); // the records before it are sent and marked; it is not
                    break;
                }
                List<SourceRecord> out = ((KeyRestore.Send) keyed).records();
                acks.add(out.isEmpty() ? null : send(out, sizes, acks.size()));
            }
            // the batch is complete: send what the producer still holds now instead of after linger.ms
            producer.flush();
            for (Future<RecordMetadata> sweep : sweeps) {
                try {
                    sweep.get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("Kafka did not acknowledge a snapshot sweep: " + e.getCause().getMessage(), e.getCause());
                }
            }
            try {
                snapshots.endBatch();
            } catch (java.io.IOException e) {
                throw new IllegalStateException("cannot write " + IncrementalSnapshotFile.fileFor(config.offsetsFile()) + ": " + e.getMessage(), e);
            }
            // await every acknowledgement in order, store how far Kafka has the records, only then mark them processed
            int acked = 0;
            RuntimeException failed = null;
            Lsn furthest = null;
            for (; acked < acks.size(); acked++) {
                SourceRecord sr = records.get(acked).record();
                if (acks.get(acked) != null) {
                    try {
                        acks.get(acked).get();
                    } catch (ExecutionException e) {
                        failed = e.getCause() instanceof RecordTooLargeException
                                ? new IllegalStateException(CaptureFailures.tooLarge(sr.topic(), sr.key(), sr.sourceOffset(),
                                        sizes[acked], CaptureSettings.maxEventBytes(config), e.getCause().getMessage()), e.getCause())
                                : new IllegalStateException("Kafka did not acknowledge the event for topic " + sr.topic()
                                        + " at source offset " + sr.sourceOffset() + ": " + e.getCause().getMessage(), e.getCause());
                        break;
                    }
                }
                Lsn at = sr.sourceOffset() == null ? null : OffsetsFile.position(sr.sourceOffset()).orElse(null);
                if (at != null && (furthest == null || at.isAfter(furthest))) {
                    furthest = at;
                }
            }
            if (furthest != null) {
                try {
                    delivered.advanceTo(furthest);
                } catch (java.io.IOException e) {
                    throw new IllegalStateException("cannot write " + DeliveredPosition.fileFor(config.offsetsFile()) + ": " + e.getMessage(), e);
                }
            }
            List<Map<String, ?>> sourceOffsets = new ArrayList<>(acked);
            for (int i = 0; i < acked; i++) {
                sourceOffsets.add(records.get(i).record().sourceOffset());
            }
            List<Map<String, ?>> toStore = resumeSafe.plan(sourceOffsets);
            Map<String, Long> perTopic = new java.util.HashMap<>();
            for (int i = 0; i < acked; i++) {
                markProcessed(committer, records.get(i), IncrementalSnapshotOffsets.resumable(toStore.get(i)));
                if (acks.get(i) != null) {
                    sent.incrementAndGet();
                    if (records.get(i).record().value() != null) { // a tombstone follows its delete: no change of its own
                        perTopic.merge(records.get(i).record().topic(), 1L, Long::sum);
                    }
                }
            }
            for (TableId t : config.source().tables()) {
                Long n = perTopic.get(config.topicFor(t));
                if (n != null) {
                    metrics.captured(t, n);
                }
            }
            if (failed == null && stop != null) {
                stopWithout(stop);
                committer.markBatchFinished();
                return;
            }
            if (failed != null) {
                throw failed;
            }
            committer.markBatchFinished();
        }

        /**
         * Stops capture on a schema change it cannot follow: the records before it are marked processed, the engine is
         * closed from another thread the ordinary way (a failure thrown here would print Debezium's stack trace), and
         * {@link #failure()} holds the one line.
         */
        private void stopWithout(RuntimeException stop) {
            stopping = true;
            failure = stop;
            log.error("capture {} stopped: {}", config.name(), stop.getMessage());
            Thread closer = new Thread(() -> {
                try {
                    closeEngine();
                } catch (IOException | RuntimeException e) {
                    log.warn("capture {}: closing the engine after a schema change stop failed: {}", config.name(), e.getMessage());
                }
            }, "tidemark-capture-stop-" + config.name());
            closer.setDaemon(true);
            closer.start();
        }

        /** Sends the records of one change ({@code sizes[at]}: their bytes); returns their acknowledgements as one. */
        private Future<RecordMetadata> send(List<SourceRecord> out, int[] sizes, int at) {
            List<Future<RecordMetadata>> sends = new ArrayList<>(out.size());
            for (SourceRecord sr : out) {
                byte[] key = sr.key() == null ? null : json.write(sr.keySchema(), sr.key());
                byte[] value = sr.value() == null ? null : json.write(sr.valueSchema(), sr.value());
                // counted before the send: a sink can apply a record as soon as Kafka holds it, before this thread has
                // seen the ack (so eventsSent() can briefly be below what a sink applied; eventsProduced() never is)
                produced.incrementAndGet();
                rowRecordsProduced.incrementAndGet();
                sizes[at] += (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
                sends.add(producer.send(new ProducerRecord<>(sr.topic(), KeyValuePartitioner.partition(sr.key(), producer.partitionsFor(sr.topic()).size()), key, value), recordEnd));
            }
            return AllAcks.of(sends);
        }

        /** Sends {@code out} and waits for every acknowledgement (with the records sent before them). */
        private void sendNow(List<ProducerRecord<byte[], byte[]>> out) throws InterruptedException {
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (ProducerRecord<byte[], byte[]> pr : out) {
                produced.incrementAndGet();
                sends.add(producer.send(pr, recordEnd));
            }
            producer.flush();
            for (int i = 0; i < sends.size(); i++) {
                try {
                    sends.get(i).get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("Kafka did not acknowledge the schema change for topic " + out.get(i).topic()
                            + " partition " + out.get(i).partition() + ": " + e.getCause().getMessage(), e.getCause());
                }
            }
        }

        /** Sends the sweep of a table whose incremental snapshot ended ({@link SnapshotSweep}) to its topic. */
        private Future<RecordMetadata> sendSweep(IncrementalSnapshotMarks.Ended ended) {
            String topic = config.topicFor(ended.table());
            byte[] value = json.write(SnapshotSweep.schema(), SnapshotSweep.value(ended.table(), ended.begin()));
            log.info("capture {}: snapshot of {} ended; target rows older than its beginning ({}) are removed",
                    config.name(), ended.table(), ended.begin().encode());
            produced.incrementAndGet();
            return producer.send(new ProducerRecord<>(topic, KeyValuePartitioner.partition(null, producer.partitionsFor(topic).size()), null, value), recordEnd);
        }

        /** Marks a record processed with the offset chosen for it (null: not at all). */
        private void markProcessed(DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer,
                                   RecordChangeEvent<SourceRecord> record, Map<String, ?> offset) throws InterruptedException {
            if (offset == null) {
                return;
            }
            if (offset == record.record().sourceOffset()) {
                committer.markProcessed(record);
                return;
            }
            DebeziumEngine.Offsets instead = committer.buildOffsets();
            offset.forEach(instead::set);
            committer.markProcessed(record, instead);
        }

        @Override
        public boolean supportsTombstoneEvents() {
            return true;
        }
    }
}
