package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;

/**
 * Reads what {@link IdentityAtStart} decides on (the stored offsets' position, the tables captured before, the
 * relations and snapshot requests now) and refuses the start with its line. Not on a first start or
 * {@code --resnapshot}, whose snapshot rewrites every table. Reads only.
 */
final class IdentityAtStartCheck {
    private IdentityAtStartCheck() {
    }

    /** Throws {@link CaptureRefusedException} with the line when a resumed table lost {@code FULL} unseen. */
    static void refuseIfChanged(PipelineConfig config, SourceSlots slots, CaptureChoice choice, Map<TableId, String> identities,
                                String configLabel) {
        if (choice == CaptureChoice.RESNAPSHOT || identities.isEmpty()) {
            return;
        }
        Optional<TableSet.Stored> stored = TableSet.read(config.offsetsFile());
        if (stored.isEmpty() || !(OffsetsFile.read(config.offsetsFile()) instanceof StoredOffsets.Present p) || p.position().isEmpty()) {
            return;
        }
        long lsn = p.position().get().value();
        Optional<String> line;
        try (Connection c = slots.connect()) {
            boolean signals = SnapshotSignals.exists(c, config.source());
            line = IdentityAtStart.stop(identities, stored.get().captured(), TableSet.relations(c, config.source()),
                    t -> signals && requestedAfter(c, config, t, lsn), config.source().setReplicaIdentityFull(), configLabel);
        } catch (SQLException e) {
            return; // the preflight reports the source itself
        }
        if (line.isPresent()) {
            throw new CaptureRefusedException(line.get());
        }
    }

    private static boolean requestedAfter(Connection c, PipelineConfig config, TableId t, long lsn) {
        try {
            return SnapshotSignals.requestedAfter(c, config.source(), t, lsn);
        } catch (SQLException e) {
            return false; // unreadable: no request seen, so the start stops rather than guesses
        }
    }
}
