package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What a stop (Ctrl-C, SIGTERM) of capture during its initial snapshot means, said at the stop: Debezium's snapshot
 * does not resume, so the next start refuses ({@link CaptureStartDecision}) until the user chooses; the line names the
 * command that continues. Read after capture stopped: the offsets file holds a position stored before the snapshot's
 * last row, or none while the slot exists.
 */
public final class SnapshotStop {
    private SnapshotStop() {
    }

    /**
     * The line for a capture stopped during its initial snapshot, or empty when it was not.
     *
     * @param configLabel the pipeline file as the user named it
     * @param command     the command that ran capture ({@code run} or {@code capture})
     */
    public static Optional<String> explain(PipelineConfig config, String configLabel, String command) {
        StoredOffsets offsets = OffsetsFile.read(config.offsetsFile());
        boolean during = offsets instanceof StoredOffsets.Present p && p.snapshotIncomplete();
        if (offsets instanceof StoredOffsets.Absent) {
            try {
                during = new SourceSlots(config.source()).read() instanceof SlotState.Present;
            } catch (SQLException e) {
                return Optional.empty(); // the next start says what it finds
            }
        }
        return during ? Optional.of(line(config, configLabel, command)) : Optional.empty();
    }

    static String line(PipelineConfig config, String configLabel, String command) {
        return "capture of pipeline " + config.name() + " stopped during its initial snapshot, which does not resume: the next plain "
                + "start refuses. To continue, take the snapshot again: `tidemark " + command + " --config " + configLabel
                + " --resnapshot` (re-creates slot \"" + config.source().slot() + "\"; rows already applied are overwritten, and target "
                + "rows the new snapshot no longer holds are removed when it ends)";
    }
}
