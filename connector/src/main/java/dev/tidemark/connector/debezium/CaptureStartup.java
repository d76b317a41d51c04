package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Before the engine starts: reads the slot and the offsets file, lets {@link CaptureStartDecision} decide, and
 * carries out what the decision needs (drop the slot, set the offsets file aside). A refusal is thrown as
 * {@link CaptureRefusedException} before anything was changed.
 */
final class CaptureStartup {
    private static final Logger log = LoggerFactory.getLogger(CaptureStartup.class);

    private CaptureStartup() {
    }

    /** @param command the command that runs capture ({@code run} or {@code capture}), for the commands a refusal names */
    static CaptureStart prepare(PipelineConfig config, SourceSlots slots, CaptureChoice choice, String configLabel, String command) {
        SlotState slot;
        try {
            slot = slots.read();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read replication slot \"" + config.source().slot() + "\": " + e.getMessage(), e);
        }
        StoredOffsets offsets = OffsetsFile.read(config.offsetsFile());
        CaptureStart start = CaptureStartDecision.decide(config.source().slot(), configLabel, command, slot, offsets,
                DeliveredPosition.read(config.offsetsFile()), FirstPositionNote.read(config.offsetsFile()), choice);
        if (start instanceof CaptureStart.Fresh || start instanceof CaptureStart.Resnapshot) {
            clearNote(config); // a new snapshot starts: what the note said is over
        }
        if (start instanceof CaptureStart.Refuse r) {
            throw new CaptureRefusedException(r.message());
        } else if (start instanceof CaptureStart.Fresh) {
            log.info("capture {}: no slot and no offsets yet; creating slot \"{}\" and taking the initial snapshot",
                    config.name(), config.source().slot());
        } else if (start instanceof CaptureStart.Resume r) {
            boolean slotAhead = slot instanceof SlotState.Present p && p.confirmedFlush() != null && p.confirmedFlush().isAfter(r.storedPosition());
            log.info("capture {}: resuming from {} in {} (slot \"{}\" {}{})", config.name(), r.storedPosition(),
                    config.offsetsFile(), config.source().slot(), describe(slot),
                    slotAhead ? "; ahead of the offsets but not of the position Kafka acknowledged, so nothing is skipped: the offsets "
                            + "move to the slot's position (the server may no longer hold the WAL before it)" : "");
            if (slotAhead && offsets instanceof StoredOffsets.Present o) {
                resumeAtSlot(config, o, ((SlotState.Present) slot).confirmedFlush());
            }
        } else if (start instanceof CaptureStart.Resnapshot r) {
            log.warn("capture {}: --resnapshot: {}{}taking a new snapshot; when it ends, target rows it no longer holds are removed",
                    config.name(),
                    r.dropSlot() ? "dropping slot \"" + config.source().slot() + "\", " : "",
                    r.discardOffsets() ? "setting aside " + config.offsetsFile() + ", " : "");
            if (r.dropSlot()) {
                try {
                    slots.drop();
                } catch (SQLException e) {
                    throw new IllegalStateException("cannot drop replication slot \"" + config.source().slot() + "\" for --resnapshot: "
                            + e.getMessage(), e);
                }
            }
            if (r.discardOffsets()) {
                setAside(config.offsetsFile());
                setAside(DeliveredPosition.fileFor(config.offsetsFile()));
            }
        } else if (start instanceof CaptureStart.AcceptGap) {
            AcceptedGap.carryOut(config, slot, offsets, configLabel);
        }
        return start;
    }

    private static void clearNote(PipelineConfig config) {
        try {
            FirstPositionNote.clear(config.offsetsFile());
        } catch (IOException e) {
            throw new IllegalStateException("cannot remove " + FirstPositionNote.fileFor(config.offsetsFile()) + ": " + e.getMessage(), e);
        }
    }

    static void setAside(Path file) {
        if (!Files.exists(file)) {
            return;
        }
        Path aside = file.resolveSibling(file.getFileName() + ".discarded-" + System.currentTimeMillis());
        try {
            Files.move(file, aside);
        } catch (IOException e) {
            throw new IllegalStateException("cannot set aside capture offsets file " + file + ": " + e.getMessage(), e);
        }
        log.warn("capture offsets file {} moved to {}", file, aside);
    }

    /**
     * Rewrites the offsets to the slot's confirmed position: Kafka already holds every change before it (the decision
     * checked the acknowledged position), and Debezium refuses to start below the slot's restart position.
     */
    private static void resumeAtSlot(PipelineConfig config, StoredOffsets.Present offsets, Lsn slotPosition) {
        try {
            OffsetsFile.write(config.offsetsFile(), GapOffsets.movedTo(offsets.entries(), slotPosition));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write capture offsets file " + config.offsetsFile() + ": " + e.getMessage(), e);
        }
    }

    private static String describe(SlotState slot) {
        return slot instanceof SlotState.Present p ? "confirmed " + (p.confirmedFlush() == null ? "nothing yet" : p.confirmedFlush()) : "absent";
    }
}
