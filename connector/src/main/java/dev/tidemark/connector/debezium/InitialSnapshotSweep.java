package dev.tidemark.connector.debezium;

import dev.tidemark.event.SourcePosition;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * After an initial snapshot (a first start, {@code --resnapshot}): says when it ended and at which position, so that
 * capture sends every captured table a sweep ({@link SnapshotSweep}) and the sink removes the target rows the snapshot
 * no longer holds (rows the source deleted in a gap, or while the pipeline was dropped and its target rows kept). Each snapshot row carries the snapshot's position
 * ({@code lsn:<snapshot LSN>:v2:0:…}); every older target row predates the snapshot, and every change streamed after it
 * sorts after it. The snapshot ends at the first record that is not one of its rows (the position marker capture
 * writes once the slot exists always follows it). Pure and not thread-safe (the engine's one consumer thread).
 */
final class InitialSnapshotSweep {
    private Long snapshotLsn;
    private boolean done;

    /**
     * Whether a start sweeps when its initial snapshot ends: a first start or {@code --resnapshot} that takes one
     * ({@code snapshot.mode} {@code initial}); never with {@code no_data}, where no snapshot re-reads the rows a sweep
     * would remove, nor on a resume or {@code --accept-gap}.
     */
    static boolean applies(CaptureStart start, String snapshotMode) {
        boolean snapshots = start instanceof CaptureStart.Fresh || start instanceof CaptureStart.Resnapshot;
        return snapshots && "initial".equals(snapshotMode == null ? "initial" : snapshotMode.trim());
    }

    /** Observes one record in delivery order; returns the sweep's position once, at the first record after the snapshot. */
    SourcePosition.Wal observe(SourceRecord record) {
        if (done) {
            return null;
        }
        Struct source = record.value() instanceof Struct v && v.schema().field("source") != null && v.get("source") instanceof Struct s ? s : null;
        Object snapshot = source == null || source.schema().field("snapshot") == null ? null : source.get("snapshot");
        if (snapshot != null && isSnapshotRow(snapshot.toString())) {
            if (source.schema().field("lsn") != null && source.get("lsn") instanceof Long lsn) {
                snapshotLsn = lsn;
            }
            return null;
        }
        Map<String, ?> offset = record.sourceOffset();
        if (offset == null || snapshotInProgress(offset)) {
            return null;
        }
        Long lsn = snapshotLsn;
        if (lsn == null) {
            lsn = offset.get("lsn") instanceof Number n ? n.longValue() : null;
        }
        if (lsn == null) {
            return null;
        }
        done = true;
        return new SourcePosition.Wal(lsn, SourcePosition.Phase.SNAPSHOT, 0);
    }

    /** Debezium's {@code source.snapshot} of an initial snapshot's row ({@code true}, {@code first}, {@code last}, …). */
    static boolean isSnapshotRow(String snapshot) {
        return switch (snapshot) {
            case "false", "incremental", "" -> false;
            default -> true;
        };
    }

    private static boolean snapshotInProgress(Map<String, ?> offset) {
        Object snapshot = offset.get("snapshot");
        return snapshot != null && !"false".equalsIgnoreCase(snapshot.toString())
                && !Boolean.TRUE.equals(offset.get("snapshot_completed"));
    }
}
