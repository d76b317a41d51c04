package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Captures a PostgreSQL source with the embedded Debezium (async) engine and the pgoutput plugin, and produces one
 * Kafka topic per table, keyed by primary key, values as Debezium envelopes in JSON with schemas.
 *
 * <p>Delivery ({@link ProducingConsumer}): a record is marked processed with the engine only once Kafka acknowledged
 * it. Debezium's source offsets are flushed to a local file ({@link PipelineConfig#offsetsFile()}) every second and on
 * close, atomically and durably ({@link DurableOffsetBackingStore}), so a crash can repeat events since the last flush
 * (the sink is idempotent) but never skips one. The replication slot keeps WAL until those offsets are flushed.
 *
 * <p>Start: every check runs before anything changes ({@link CaptureChecks}); {@link CaptureStartup} then compares
 * the slot with the stored offsets and refuses ({@link CaptureRefusedException}) when starting would lose changes
 * silently, unless the user chose {@link CaptureChoice#RESNAPSHOT} or {@link CaptureChoice#ACCEPT_GAP}. A start
 * without offsets gets its first position from a {@link PositionMarker}; {@link Heartbeats} move the slot on while the
 * captured tables are idle. While it runs, {@link SourceTablesWatch} and {@link RelationWatcher} stop it with one line
 * when a captured table changes in a way no row event carries. Settings: {@link CaptureSettings}.
 *
 * <p>Lifecycle: {@link #start()} once, {@link #close()} from any thread (idempotent; flushes offsets; when capture
 * started without offsets it first waits, 30 s at most, until a position is stored).
 */
public final class DebeziumChangeSource implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DebeziumChangeSource.class);

    /** How often {@link RelationWatcher} checks that the captured tables are the relations capture started with. */
    static final Duration RELATION_CHECK = Duration.ofSeconds(2);

    /** The pipeline; {@link #start} widens its excluded columns by the metadata columns of Tidemark targets. */
    private PipelineConfig config;
    private final CaptureChoice choice;
    private final String configLabel;
    private final SourceSlots slots;
    private final CaptureCounts counts = new CaptureCounts();
    private final CaptureEngine engine;
    /** The command that runs capture ({@code run} or {@code capture}), for the commands its lines name. */
    private volatile String command = "run";
    private volatile CaptureMetrics metrics = CaptureMetrics.NONE;
    private volatile Throwable failure;
    private volatile boolean closed;
    private CaptureStart startMode;
    private CaptureSender sender;
    private volatile ProducingConsumer consumer;
    private PositionMarker marker;
    private CaptureLock lock;
    private SourceTablesWatch watch;
    private RelationWatcher relationWatcher;
    private SchemaChangeCapture schemaChanges;
    /** Keys the row changes Debezium sent without one ({@link CapturedKeys}). */
    private CapturedKeys keys;

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
        this.engine = new CaptureEngine(config.name());
    }

    /** Names {@code command} ({@code run}, the default, or {@code capture}) in the commands its lines suggest; returns this. */
    public DebeziumChangeSource withCommand(String command) {
        this.command = Objects.requireNonNull(command, "command");
        return this;
    }

    /** Reports to {@code metrics} from now on (before {@link #start()}); returns this. */
    public DebeziumChangeSource withMetrics(CaptureMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics);
        return this;
    }

    /**
     * Checks the source, decides how to start (or refuses with {@link CaptureRefusedException}), creates the topics
     * and starts the engine on its own thread.
     */
    public void start() {
        start(() -> { });
    }

    /**
     * As {@link #start()}; {@code beforeChanges} runs once every check of the source and of Kafka passed and before
     * capture changes anything (replica identity, slot, topics, state directory) — e.g. opening the sink's target,
     * so that a refused start leaves nothing behind on either side. If it throws, capture does not start.
     */
    public void start(Runnable beforeChanges) {
        CaptureChecks.Passed checked = CaptureChecks.run(config, slots, choice, configLabel, beforeChanges);
        config = checked.config();
        if (Files.isDirectory(config.stateDir())) { // held before a --resnapshot may drop the slot; else once the folder is made
            lock = CaptureLock.claim(config.stateDir(), config.name());
        }
        ReplicaIdentities.recordReplaced(config, slots, checked.identities());
        Map<TableId, Long> relations = prepareSourceAndTopics();
        createStateDir();
        if (lock == null) {
            lock = CaptureLock.claim(config.stateDir(), config.name());
        }
        CaptureGuard.commit(config, slots, checked.owned());
        launch(checked.owned(), relations);
        log.info("capture {} started: {} → {}", config.name(), config.source().tables(), config.topics());
    }

    /** Decides the start, prepares slot, history and topics; returns the captured tables' relations. */
    private Map<TableId, Long> prepareSourceAndTopics() {
        startMode = CaptureStartup.prepare(config, slots, choice, configLabel, command);
        CaptureTopology.Prepared topology = CaptureTopology.prepare(config, slots, startMode);
        // before the topics and their first record: where a complete history starts
        CaptureHistory.record(config, startMode, topology.added().stream().map(config::topicFor).collect(Collectors.toSet()));
        keys = CapturedKeys.start(config, configLabel, slots, topology.relations());
        schemaChanges = SchemaChangeCapture.start(config, configLabel, slots);
        CaptureTopics.ensure(config);
        return topology.relations();
    }

    /** Starts the watches, the producer and the engine. */
    private void launch(Ownership.Verdict.Proceed owned, Map<TableId, Long> relations) {
        // the captured tables (and partitioned tables' trees) as the snapshot will find them, watched from now on
        watch = SourceTablesWatch.start(config.source(), configLabel, this::stopWith, schemaChanges.truncateTrigger(),
                config.offsetsFile(), snapshotSweeps());
        sender = new CaptureSender(config, producerProperties(), counts);
        consumer = new ProducingConsumer(config, sender, counts, schemaChanges, keys, metrics, snapshotSweeps(), this::stopWithout);
        engine.run(engineProperties(), consumer, (success, message, error) -> {
            if (!success && !closed && failure == null) {
                failure = CaptureFailures.explain(config, slots, configLabel, command, message, error);
                if (!(failure instanceof CaptureRefusedException)) {
                    log.error("capture {} stopped: {}", config.name(), message);
                }
            }
        });
        CaptureGuard.recordWhenCreated(config, slots, owned, this::isStopped);
        relationWatcher = RelationWatcher.start(config, slots, relations, RELATION_CHECK, configLabel, line -> {
            failure = new CaptureRefusedException(line);
            log.error("capture {}: {}", config.name(), line);
            close();
        });
        if (!(startMode instanceof CaptureStart.Resume) && !(startMode instanceof CaptureStart.AcceptGap g && !g.discardOffsets())) {
            marker = PositionMarker.start(config, slots, this::isStopped, configLabel, command);
        }
    }

    private void createStateDir() {
        try {
            Files.createDirectories(config.stateDir());
        } catch (IOException e) {
            throw new IllegalStateException("cannot create state directory " + config.stateDir() + ": " + e.getMessage(), e);
        }
    }

    /** Whether this start's initial snapshot ends with a sweep of every table ({@link InitialSnapshotSweep}). */
    private boolean snapshotSweeps() {
        return InitialSnapshotSweep.applies(startMode, config.source().debezium().getOrDefault("snapshot.mode", "initial"));
    }

    /** The producer's settings ({@link CaptureSettings#producer}). */
    Properties producerProperties() {
        return CaptureSettings.producer(config);
    }

    /** The engine's settings for the start decided in {@link #start()} ({@link CaptureSettings#engine}). */
    Properties engineProperties() {
        return CaptureSettings.engine(config, startMode);
    }

    /** True once the connector task runs (snapshot or streaming) and until capture stops. */
    public boolean isRunning() {
        return engine.taskStarted() && !isStopped();
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
        return counts.sent();
    }

    /**
     * Events handed to the Kafka producer so far, acknowledged or not: never less than what a sink can have applied of
     * them, so {@code applied >= eventsProduced()} means a sink has caught up with everything capture produced.
     * ({@link #eventsSent()} is counted after the acks and can lag a fast sink.)
     */
    public long eventsProduced() {
        return counts.produced();
    }

    /**
     * True once capture stopped on a change it cannot follow (a schema change's stop line): every record before that
     * change was sent and acknowledged ({@link #sentEnds()}), none from it on.
     */
    public boolean stoppedOnAChange() {
        ProducingConsumer c = consumer;
        return c != null && c.stoppedOnAChange();
    }

    /** Per partition capture sent to: the offset after the last record Kafka acknowledged so far. */
    public Map<TopicPartition, Long> sentEnds() {
        return counts.sentEnds();
    }

    /**
     * Records of row changes (with the tombstones of deletes) handed to the Kafka producer so far: {@link #eventsProduced()}
     * without capture's control records (snapshot sweeps, schema changes), so the figure to report as changes captured.
     */
    public long rowRecordsProduced() {
        return counts.rowRecordsProduced();
    }

    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    public boolean isStopped() {
        return engine.hasEnded();
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
        engine.stopInBackground("tidemark-capture-stop", Duration.ofSeconds(30), "stopping capture {} failed: {}");
    }

    /**
     * Stops capture on a schema change it cannot follow: the records before it are marked processed, the engine is
     * closed from another thread the ordinary way (a failure thrown on the engine's thread would print Debezium's
     * stack trace), and {@link #failure()} holds the one line.
     */
    private void stopWithout(RuntimeException stop) {
        failure = stop;
        log.error("capture {} stopped: {}", config.name(), stop.getMessage());
        engine.stopInBackground("tidemark-capture-stop-" + config.name(), Duration.ZERO,
                "capture {}: closing the engine after a schema change stop failed: {}");
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (watch != null) {
            watch.close();
        }
        try {
            stopEngine();
        } catch (IOException e) {
            log.warn("closing capture engine failed: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            release();
        }
    }

    private void stopEngine() throws IOException, InterruptedException {
        if (!engine.isCreated()) {
            return;
        }
        // Stopping an engine that is still creating its tasks makes Debezium fail the start with a stack trace; let the
        // start finish (or fail) first, then stop it the ordinary way.
        if (!engine.awaitTaskStarted(Duration.ofSeconds(30))) {
            log.warn("capture {} was still starting after 30 s; stopping it anyway", config.name());
        }
        if (marker != null) {
            marker.awaitStoredPosition(Duration.ofSeconds(30), this::isStopped);
        }
        engine.stop();
        if (!engine.awaitEnd(Duration.ofSeconds(60))) {
            log.warn("capture {} did not stop within 60 s", config.name());
        }
    }

    private void release() {
        if (relationWatcher != null) {
            relationWatcher.close();
        }
        if (marker != null) {
            marker.stop();
        }
        engine.shutdownNow();
        if (sender != null) {
            sender.close();
        }
        if (lock != null) {
            lock.close();
        }
        log.info("capture {} stopped after {} events", config.name(), counts.sent());
    }
}
