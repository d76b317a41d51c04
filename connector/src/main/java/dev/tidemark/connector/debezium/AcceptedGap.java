package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import java.io.IOException;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out {@code --accept-gap} ({@link CaptureStart.AcceptGap}) before the engine starts: sets the offsets aside,
 * writes offsets at the slot's confirmed position ({@link GapOffsets}) when the old ones name a position and the slot
 * has one, records the gap ({@link CaptureGaps}) and logs one WARN line naming both positions.
 */
final class AcceptedGap {
    private static final Logger log = LoggerFactory.getLogger(AcceptedGap.class);

    private AcceptedGap() {
    }

    /** @param configLabel the pipeline file as the user named it (null: {@code FILE}), for the repair the WARN line names */
    static void carryOut(PipelineConfig config, SlotState slot, StoredOffsets offsets, String configLabel) {
        String slotName = config.source().slot();
        String from = offsets instanceof StoredOffsets.Present p && p.position().isPresent() ? p.position().get().toString()
                : "unknown (offsets " + (offsets instanceof StoredOffsets.Damaged ? "damaged" : offsets instanceof StoredOffsets.Absent
                ? "missing" : "without a position") + ")";
        Lsn to = slot instanceof SlotState.Present s ? s.confirmedFlush() : null;
        String reason = !(slot instanceof SlotState.Present) ? "the slot was gone; a new one is created"
                : offsets instanceof StoredOffsets.Present p && p.snapshotIncomplete() ? "the initial snapshot had not completed"
                : offsets instanceof StoredOffsets.Present ? "the slot was ahead of the offsets file" : "the offsets file was unusable";
        CaptureStartup.setAside(config.offsetsFile());
        CaptureStartup.setAside(DeliveredPosition.fileFor(config.offsetsFile()));
        if (to != null && offsets instanceof StoredOffsets.Present p && p.position().isPresent()) {
            try {
                OffsetsFile.write(config.offsetsFile(), GapOffsets.movedTo(p.entries(), to));
            } catch (IOException e) {
                throw new IllegalStateException("cannot write capture offsets file " + config.offsetsFile() + " for --accept-gap: "
                        + e.getMessage(), e);
            }
        }
        String toText = to == null ? "the new slot's position" : to.toString();
        try {
            CaptureGaps.append(CaptureGaps.fileFor(config), new CaptureGaps.Gap(Instant.now().toString(), slotName, from, toText, reason));
        } catch (IOException e) {
            throw new IllegalStateException("cannot record the accepted gap in " + CaptureGaps.fileFor(config) + ": " + e.getMessage(), e);
        }
        log.warn("capture {}: --accept-gap: accepted gap from {} to {} in slot \"{}\" ({}): changes between them are not captured; "
                        + "streaming from {} without a snapshot (recorded in {}; `tidemark reconcile --config {} --repair --apply` repairs "
                        + "the target)", config.name(), from, toText, slotName, reason, toText, CaptureGaps.fileFor(config),
                configLabel == null ? "FILE" : configLabel);
    }
}
