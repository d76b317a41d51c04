package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Capture's view of the snapshots running in the records it delivers, one batch at a time: it tells the signal table's
 * records apart (never sent), stamps incremental snapshot rows with a position ({@link IncrementalRows}), and says
 * before which record a sweep must be sent: when a table's incremental snapshot ended ({@link IncrementalSnapshotMarks})
 * and, after an initial snapshot (a first start or {@code --resnapshot}), when it ended ({@link InitialSnapshotSweep}, every table).
 * The running incremental snapshots are stored ({@link IncrementalSnapshotFile}) at the end of each batch that changed
 * them, before its records are marked processed. Not thread-safe: the engine's one consumer thread.
 */
final class SnapshotFlow {
    private static final Logger log = LoggerFactory.getLogger(SnapshotFlow.class);

    private final PipelineConfig config;
    private final IncrementalSnapshotMarks marks;
    private final InitialSnapshotSweep resnapshot;
    private final String signalTopic;
    /** The position of the last record delivered with one. */
    private SourcePosition.Wal streamedAt;
    private Map<TableId, SourcePosition.Wal> atBatchStart = Map.of();

    /**
     * @param resnapshot capture started with an initial snapshot (first start, {@code --resnapshot}): its end sweeps every
     *                   table, so rows a target kept from before (an earlier pipeline, a {@code tidemark drop}) that the
     *                   source no longer holds are removed
     */
    SnapshotFlow(PipelineConfig config, boolean resnapshot) {
        this.config = config;
        this.marks = new IncrementalSnapshotMarks(config.source().tables(), IncrementalSnapshotFile.read(config.offsetsFile()));
        this.resnapshot = resnapshot ? new InitialSnapshotSweep() : null;
        TableId signals = SnapshotSignals.table(config.source());
        this.signalTopic = config.kafka().topicPrefix() + "." + signals.schema() + "." + signals.table();
    }

    void beginBatch() {
        atBatchStart = marks.running();
    }

    /** True for a record of the signal table (signals and watermarks: Debezium's, never sent to Kafka). */
    boolean isSignal(SourceRecord record) {
        return signalTopic.equals(record.topic());
    }

    /** Observes one record before it is sent; returns the sweeps to send before it, in order. */
    List<IncrementalSnapshotMarks.Ended> observe(SourceRecord record) {
        List<IncrementalSnapshotMarks.Ended> sweeps = new ArrayList<>();
        SourcePosition.Wal snapshotEnd = resnapshot == null ? null : resnapshot.observe(record);
        if (snapshotEnd != null) {
            config.source().tables().forEach(t -> sweeps.add(new IncrementalSnapshotMarks.Ended(t, snapshotEnd)));
        }
        SourcePosition.Wal at = IncrementalSnapshotMarks.position(record);
        sweeps.addAll(marks.observe(record.sourceOffset(), at,
                isSignal(record) ? SnapshotRequests.requested(record, config.source().tables()) : List.of()));
        if (at != null) {
            streamedAt = at;
        } else if (streamedAt != null && IncrementalRows.isIncremental(record)) {
            IncrementalRows.stamp(record, streamedAt);
        }
        return sweeps;
    }

    /** Stores the running incremental snapshots if this batch changed them. */
    void endBatch() throws IOException {
        Map<TableId, SourcePosition.Wal> running = marks.running();
        if (running.equals(atBatchStart)) {
            return;
        }
        running.forEach((t, begin) -> {
            if (!begin.equals(atBatchStart.get(t))) {
                log.info("capture {}: incremental snapshot of {} began at {}", config.name(), t, begin.encode());
            }
        });
        IncrementalSnapshotFile.write(config.offsetsFile(), running);
    }
}
