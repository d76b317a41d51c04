package dev.tidemark.connector.pipeline;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.debezium.CaptureChoice;
import dev.tidemark.connector.debezium.DebeziumChangeSource;
import dev.tidemark.sink.kafka.HistoryRecord;
import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pipeline in one process: capture (Debezium → Kafka) and/or apply (Kafka → target), each on its own thread.
 *
 * <p>{@link #close()} stops capture first (its engine flushes Debezium's offsets and the producer flushes what was
 * handed over), then asks the sink to finish its batch in flight and commit it with its offsets. Idempotent. When
 * capture had stopped on a change it cannot follow (a schema change's stop line), the sink first applies what capture sent before the stop, on the
 * partitions it owns ({@link SinkCatchUp}, {@link #CATCH_UP} at most): the line's way on may take the table out of the
 * pipeline, and no sink would read those records then.
 */
public final class Sidecar implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Sidecar.class);

    /** How long {@link #close()} lets the sink apply what capture sent before it stopped by itself. */
    static final Duration CATCH_UP = Duration.ofSeconds(60);

    private final PipelineConfig config;
    private final DebeziumChangeSource capture;
    private final KafkaSinkRunner sink;
    private final Thread sinkThread;
    /** The pipeline file as the user named it (null: unknown), for the command the catch-up's line names. */
    private final String configLabel;
    private volatile boolean closed;
    /** The failure that had stopped a half when {@link #close()} began: the cause, not what stopping the other half met. */
    private volatile Throwable failureAtClose;

    private Sidecar(PipelineConfig config, DebeziumChangeSource capture, KafkaSinkRunner sink, String configLabel) {
        this.config = config;
        this.configLabel = configLabel;
        this.capture = capture;
        this.sink = sink;
        this.sinkThread = sink == null ? null : new Thread(sink, "tidemark-sink-" + config.name());
    }

    /** Starts the chosen halves; capture resumes only where its slot and offsets agree (else it refuses). */
    public static Sidecar start(PipelineConfig config, boolean withCapture, boolean withSink, ReplayFrom replay) {
        return start(config, withCapture, withSink, replay, CaptureChoice.NONE, null, SinkChoices.DEFAULT);
    }

    /** Starts the chosen halves, the sink with the user's explicit {@code choices}. */
    public static Sidecar start(PipelineConfig config, boolean withCapture, boolean withSink, ReplayFrom replay, SinkChoices choices) {
        return start(config, withCapture, withSink, replay, CaptureChoice.NONE, null, choices);
    }

    /** Starts the chosen halves, capture with the user's explicit {@code captureChoice}. */
    public static Sidecar start(PipelineConfig config, boolean withCapture, boolean withSink, ReplayFrom replay,
                                CaptureChoice captureChoice, String configLabel) {
        return start(config, withCapture, withSink, replay, captureChoice, configLabel, SinkChoices.DEFAULT);
    }

    /**
     * Starts the chosen halves.
     *
     * @param captureChoice what the user chose for a slot and offsets that disagree ({@code --resnapshot},
     *                      {@code --accept-gap})
     * @param configLabel   the pipeline file as the user named it, for the commands capture's messages suggest
     * @param sinkChoices   what the user chose for the sink ({@code --skip-unapplied}, {@code --accept-retention-gap},
     *                      {@code --member-id})
     * @throws dev.tidemark.connector.debezium.CaptureRefusedException when capture would lose changes silently
     */
    public static Sidecar start(PipelineConfig config, boolean withCapture, boolean withSink, ReplayFrom replay,
                                CaptureChoice captureChoice, String configLabel, SinkChoices sinkChoices) {
        return start(config, withCapture, withSink, replay, captureChoice, configLabel, sinkChoices, PipelineMetrics.NONE);
    }

    /** Starts the chosen halves, both reporting to {@code metrics}. */
    public static Sidecar start(PipelineConfig config, boolean withCapture, boolean withSink, ReplayFrom replay,
                                CaptureChoice captureChoice, String configLabel, SinkChoices sinkChoices, PipelineMetrics metrics) {
        log.info("starting {}", config.describe());
        SameDatabaseGuard.check(config); // a target that is the source: refused before either side is touched
        DebeziumChangeSource capture = withCapture ? new DebeziumChangeSource(config, captureChoice, configLabel).withCommand(withSink ? "run" : "capture").withMetrics(metrics) : null;
        AtomicReference<KafkaSinkRunner> sink = new AtomicReference<>();
        // the sink's target is opened (a SQLite file created, tidemark_offsets ensured) only once every check passed:
        // with capture, after the source and Kafka checks; alone, once the target's credentials and Kafka answered
        Runnable openSink = () -> {
            if (withSink) {
                String command = withCapture ? "run" : "sink";
                Map<String, Map<Integer, Long>> stored = StoredOffsetsCheck.storedOffsets(config); // read once for the checks
                StoredOffsetsCheck.check(config, stored, sinkChoices.acceptRetentionGap(), command, configLabel);
                if (!(replay instanceof ReplayFrom.Earliest) && captureChoice != CaptureChoice.RESNAPSHOT) {
                    TargetTableGoneCheck.check(config, stored, configLabel); // a replay or re-snapshot rebuilds every table
                    TargetTableEmptiedCheck.check(config, stored, configLabel);
                }
                sink.set(SinkFactory.runner(config, replay, sinkChoices).withMetrics(metrics).withConfigFile(configLabel)
                        .withGapAdvice(GapWayOn.advice(config, command, configLabel == null ? "FILE" : configLabel))
                        .withDroppedTableAdvice(DroppedTableWayOn.advice(config, command, configLabel == null ? "FILE" : configLabel))
                        .withHistory(HistoryRecord.topicFor(config.kafka().topicPrefix()), configLabel));
            }
        };
        try {
            if (capture != null) {
                capture.start(openSink);
            } else {
                if (withSink) {
                    SinkFactory.checkTarget(config);
                    SinkKafkaCheck.check(config);
                }
                openSink.run();
            }
        } catch (RuntimeException e) {
            new Sidecar(config, capture, sink.get(), configLabel).close();
            throw e;
        }
        Sidecar s = new Sidecar(config, capture, sink.get(), configLabel);
        if (s.sinkThread != null) {
            s.sinkThread.start();
        }
        return s;
    }

    public Optional<DebeziumChangeSource> capture() {
        return Optional.ofNullable(capture);
    }

    public Optional<KafkaSinkRunner> sink() {
        return Optional.ofNullable(sink);
    }

    /**
     * The failure of the half that stopped on its own first, if one did: once {@link #close()} has begun, the one seen
     * then (capture's when both had failed), so that the other half's trouble stopping does not hide the cause.
     */
    public Optional<Throwable> failure() {
        if (failureAtClose != null) {
            return Optional.of(failureAtClose);
        }
        return currentFailure();
    }

    private Optional<Throwable> currentFailure() {
        if (capture != null && capture.failure().isPresent()) {
            return capture.failure();
        }
        return sink == null ? Optional.empty() : sink.failure();
    }

    /** True once a running half has stopped by itself (failure or end). */
    public boolean halted() {
        return (capture != null && capture.isStopped()) || (sink != null && sink.isFinished());
    }

    /**
     * Lets the running sink apply what capture sent before it stopped by itself ({@link SinkCatchUp}): every record in
     * the captured topics at the stop, a killed earlier run's included.
     */
    private void awaitSinkCatchUp() {
        long deadline = System.nanoTime() + CATCH_UP.toNanos();
        Map<TopicPartition, Long> sent = sentBeforeTheStop();
        if (!SinkCatchUp.caughtUp(sent, sink.reachedOffsets(), sink.assignment())) {
            log.info("sink {}: capture stopped on a change; applying what capture sent before it ({} s at most): {}",
                    config.name(), CATCH_UP.toSeconds(), SinkCatchUp.unapplied(sent, sink.reachedOffsets(), sink.assignment()));
        }
        try {
            while (!sink.isFinished() && !SinkCatchUp.caughtUp(sent, sink.reachedOffsets(), sink.assignment())) {
                if (System.nanoTime() > deadline) {
                    log.warn(SinkCatchUp.notAppliedLine(config.name(), CATCH_UP, configLabel == null ? "FILE" : configLabel,
                            SinkCatchUp.unapplied(sent, sink.reachedOffsets(), sink.assignment())));
                    return;
                }
                sink.awaitTermination(Duration.ofMillis(100)); // returns at once when the sink stops meanwhile
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What this run's capture sent, and the log end of every captured topic's partition (an earlier run's records). */
    private Map<TopicPartition, Long> sentBeforeTheStop() {
        Map<TopicPartition, Long> sent = new java.util.HashMap<>(capture.sentEnds());
        try {
            StoredOffsetsCheck.endOffsets(config, java.util.Set.copyOf(config.topics())).forEach((topic, ends) ->
                    ends.forEach((partition, end) -> sent.merge(new TopicPartition(topic, partition), end, Math::max)));
        } catch (IllegalStateException e) {
            log.debug("sink {}: log ends of the captured topics not read: {}", config.name(), e.getMessage());
        }
        return sent;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        failureAtClose = currentFailure().orElse(null);
        if (capture != null && sink != null && capture.isStopped() && capture.stoppedOnAChange()) {
            awaitSinkCatchUp();
        }
        if (capture != null) {
            capture.close();
        }
        if (sink != null) {
            try {
                sink.close();
                if (!sink.isFinished()) {
                    log.warn("sink {} did not stop within 60 s", config.name());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
