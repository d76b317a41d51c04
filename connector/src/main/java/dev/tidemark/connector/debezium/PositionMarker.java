package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a capture that starts without offsets a first stored position, even when its snapshot has no rows (Debezium
 * stores none then, and would re-snapshot on the next start). Once the slot exists, a transactional logical decoding
 * message with Tidemark's prefix is written ({@link SourceSlots#emitMarker}); Debezium streams it as a record on the
 * topic {@code <prefix>.message}, which the consumer marks processed without sending it, and the engine then stores
 * that record's offset. {@link #awaitStoredPosition} lets a stop wait until the offsets file holds a position, and
 * says, with the whole command that continues, when it stops without one ({@link #notStoredLine}).
 *
 * <p>Runs on its own daemon thread; {@link #stop()} ends it.
 */
final class PositionMarker {
    private static final Logger log = LoggerFactory.getLogger(PositionMarker.class);

    private final PipelineConfig config;
    private final String configLabel;
    private final String command;
    private final Thread thread;
    private volatile boolean stopRequested;

    private PositionMarker(PipelineConfig config, SourceSlots slots, BooleanSupplier engineStopped, String configLabel, String command) {
        this.config = config;
        this.configLabel = configLabel == null ? "FILE" : configLabel;
        this.command = command;
        this.thread = new Thread(() -> run(slots, engineStopped), "tidemark-capture-marker-" + config.name());
        this.thread.setDaemon(true);
    }

    /**
     * @param configLabel the pipeline file as the user named it (null: {@code FILE}), and {@code command} the command
     *                    that runs capture ({@code run} or {@code capture}), for the command the stop line names
     */
    static PositionMarker start(PipelineConfig config, SourceSlots slots, BooleanSupplier engineStopped, String configLabel, String command) {
        PositionMarker m = new PositionMarker(config, slots, engineStopped, configLabel, command);
        m.thread.start();
        return m;
    }

    /**
     * True for the records of Tidemark's own logical decoding messages — these markers and the heartbeats
     * ({@link Heartbeats}), the only messages Debezium is told to pass — which are marked processed, never sent.
     */
    static boolean isMarker(PipelineConfig config, SourceRecord record) {
        return (config.kafka().topicPrefix() + ".message").equals(record.topic());
    }

    private void run(SourceSlots slots, BooleanSupplier engineStopped) {
        String lastProblem = null;
        while (!stopRequested && !engineStopped.getAsBoolean()) {
            try {
                if (slots.read() instanceof SlotState.Present p && p.confirmedFlush() != null) {
                    Lsn at = slots.emitMarker("pipeline " + config.name() + " started " + Instant.now());
                    log.info("capture {}: position marker written at {} in slot \"{}\"", config.name(), at, config.source().slot());
                    return;
                }
            } catch (SQLException e) {
                String problem = problem(e);
                if (!problem.equals(lastProblem)) {
                    log.warn("capture {}: cannot write the position marker yet (will retry): {}", config.name(), problem);
                    lastProblem = problem;
                }
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** What went wrong, in words: the driver's message, or its SQL state when it gave none. */
    static String problem(SQLException e) {
        return e.getMessage() != null ? e.getMessage() : "no reason given (SQL state " + e.getSQLState() + ")";
    }

    /** Waits until the offsets file holds a position, the engine stopped, or {@code atMost} passed (then warns). */
    void awaitStoredPosition(Duration atMost, BooleanSupplier engineStopped) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (!(OffsetsFile.read(config.offsetsFile()) instanceof StoredOffsets.Present)) {
            if (engineStopped.getAsBoolean()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                log.warn("{}", notStoredLine(config, configLabel, command, atMost));
                leaveNote();
                return;
            }
            Thread.sleep(100);
        }
        try {
            FirstPositionNote.clear(config.offsetsFile());
        } catch (IOException e) {
            log.warn("capture {}: cannot remove {}: {}", config.name(), FirstPositionNote.fileFor(config.offsetsFile()), e.getMessage());
        }
    }

    /** The note the next start reads: nothing was captured, only the re-snapshot continues ({@link FirstPositionNote}). */
    private void leaveNote() {
        try {
            FirstPositionNote.write(config.offsetsFile(), resnapshotCommand(configLabel, command));
        } catch (IOException e) {
            log.warn("capture {}: cannot write {}: {}", config.name(), FirstPositionNote.fileFor(config.offsetsFile()), e.getMessage());
        }
    }

    static String resnapshotCommand(String configLabel, String command) {
        return "tidemark " + command + " --config " + configLabel + " --resnapshot";
    }

    /**
     * The WARN line of a stop before a first stored position: the next plain start refuses while the slot exists, and
     * the re-snapshot continues (it also starts when the slot's creation never finished). Pure.
     */
    static String notStoredLine(PipelineConfig config, String configLabel, String command, Duration waited) {
        return "capture " + config.name() + " is stopping before it stored a first position in " + config.offsetsFile() + " (waited "
                + waited.toSeconds() + " s): the next plain start refuses to guess where it was. To continue, take the snapshot again: `"
                + resnapshotCommand(configLabel, command) + "` (re-creates slot \"" + config.source().slot() + "\"; rows already "
                + "applied are overwritten, and target rows the new snapshot no longer holds are removed when it ends)";
    }

    void stop() {
        stopRequested = true;
        thread.interrupt();
    }
}
