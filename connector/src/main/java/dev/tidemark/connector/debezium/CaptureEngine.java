package dev.tidemark.connector.debezium;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import java.io.IOException;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Debezium engine on a daemon thread of its own ({@code tidemark-capture}): {@link #run} starts it once;
 * {@link #stop} stops it the ordinary way at any moment of its start ({@link EngineClose}), once however often it is
 * called and from whichever thread; {@link #stopInBackground} does so from a new thread. Tells whether its connector
 * task has started and whether the engine has ended. Thread-safe.
 */
final class CaptureEngine {
    /** Capture's lines keep the one logger name users and tests know. */
    private static final Logger log = LoggerFactory.getLogger(DebeziumChangeSource.class);

    private final String pipeline;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "tidemark-capture");
        t.setDaemon(true);
        return t;
    });
    /** Released when the connector task has started, or the engine has ended without starting it. */
    private final CountDownLatch taskStarted = new CountDownLatch(1);
    private final CountDownLatch ended = new CountDownLatch(1);
    private final AtomicBoolean stopTaken = new AtomicBoolean();
    private volatile DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;

    /** @param pipeline the pipeline's name, for the lines this logs */
    CaptureEngine(String pipeline) {
        this.pipeline = pipeline;
    }

    /** Builds the engine and runs it; {@code onEnd} hears how it ended before {@link #hasEnded()} turns true. */
    void run(Properties properties, DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> consumer,
             DebeziumEngine.CompletionCallback onEnd) {
        engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
                .using(properties)
                .notifying(consumer)
                .using(new DebeziumEngine.ConnectorCallback() {
                    @Override
                    public void taskStarted() {
                        taskStarted.countDown();
                    }
                })
                .using((success, message, error) -> {
                    onEnd.handle(success, message, error);
                    taskStarted.countDown();
                    ended.countDown();
                })
                .build();
        executor.execute(engine);
    }

    /** Whether {@link #run} built an engine. */
    boolean isCreated() {
        return engine != null;
    }

    boolean taskStarted() {
        return taskStarted.getCount() == 0;
    }

    /** Waits until the connector task started or the engine ended; false when {@code wait} passed first. */
    boolean awaitTaskStarted(Duration wait) throws InterruptedException {
        return taskStarted.await(wait.toNanos(), TimeUnit.NANOSECONDS);
    }

    boolean hasEnded() {
        return ended.getCount() == 0;
    }

    /** Waits until the engine ended; false when {@code wait} passed first. */
    boolean awaitEnd(Duration wait) throws InterruptedException {
        return ended.await(wait.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Stops the engine; an engine that already ended by itself, or that another caller stops, needs nothing. */
    void stop() throws IOException {
        if (!stopTaken.compareAndSet(false, true)) {
            return;
        }
        try {
            // the engine's thread is interrupted only when a close it took left it waiting (EngineStopPlan)
            EngineStopPlan.Step end = EngineClose.stop(engine, this::awaitEnd, () -> {
                log.info("capture {}: the engine stopped but its thread had not ended {} s later (waiting for a polling task "
                        + "the stop dropped); interrupting it", pipeline, EngineClose.POLICY.grace().toSeconds());
                executor.shutdownNow();
            }, EngineClose.POLICY);
            if (end instanceof EngineStopPlan.GiveUp g) {
                log.warn("capture {}: stopping the engine: {}", pipeline, g.why());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops the engine from a new daemon thread named {@code threadName}, after waiting up to {@code awaitStart} for its
     * task to start (stopping an engine that is still creating its tasks makes Debezium fail with a stack trace);
     * {@code failedLine} is logged with the pipeline's name and the failure's message when the stop fails.
     */
    void stopInBackground(String threadName, Duration awaitStart, String failedLine) {
        Thread t = new Thread(() -> {
            try {
                awaitTaskStarted(awaitStart);
                stop();
            } catch (IOException | RuntimeException e) {
                log.warn(failedLine, pipeline, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, threadName);
        t.setDaemon(true);
        t.start();
    }

    /** Ends the engine's thread (after {@link #stop}, or when it never ran). */
    void shutdownNow() {
        executor.shutdownNow();
    }
}
