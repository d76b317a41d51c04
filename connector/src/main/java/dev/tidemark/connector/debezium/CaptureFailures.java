package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import java.sql.SQLException;

/**
 * Turns the engine's failure into what the user needs: when the replication slot is gone, one line naming the slot,
 * the offsets file and the ways on ({@link CaptureRefusedException}) instead of Debezium's stack trace; any other
 * failure is kept as it is.
 */
final class CaptureFailures {
    private CaptureFailures() {
    }

    static Throwable explain(PipelineConfig config, SourceSlots slots, String configLabel, String message, Throwable error) {
        Throwable failure = error != null ? error : new IllegalStateException(message);
        SlotState slot;
        try {
            slot = slots.read();
        } catch (SQLException | RuntimeException e) {
            return failure; // the source cannot be asked: keep Debezium's own account
        }
        if (slot instanceof SlotState.Absent) {
            StoredOffsets stored = OffsetsFile.read(config.offsetsFile());
            String position = stored instanceof StoredOffsets.Present p ? " holds position " + p.position().map(Lsn::toString).orElse("(none)")
                    : stored instanceof StoredOffsets.Damaged d ? " is damaged (" + d.reason() + ")" : " does not exist";
            CaptureRefusedException e = new CaptureRefusedException("capture stopped: replication slot \"" + config.source().slot()
                    + "\" was dropped while capture ran; the offsets file " + config.offsetsFile() + position
                    + " and the changes since then are gone from the server. " + CaptureStartDecision.waysOn(configLabel, true));
            e.initCause(failure);
            return e;
        }
        return failure;
    }
}
