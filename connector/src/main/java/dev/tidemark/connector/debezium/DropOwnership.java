package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What {@code tidemark drop} may remove of what it found ({@link DropPlan.Inventory}): only the slot and publication
 * the pipeline owns ({@link Ownership}). A slot that is not the pipeline's stops the drop with one line (the
 * configuration names another pipeline's slot: nothing is removed); a publication it uses but did not create is left
 * as it is and said so.
 *
 * @param refusal     the one line when nothing may be removed
 * @param inventory   what may be removed
 * @param leftAlone   a line naming the publication left alone, if any
 */
public record DropOwnership(Optional<String> refusal, DropPlan.Inventory inventory, Optional<String> leftAlone) {
    /** Reads the owners and narrows {@code found} to what the pipeline owns. */
    public static DropOwnership check(PipelineConfig config, String configLabel, DropPlan.Inventory found) {
        if (!found.slotExists() && !found.publicationExists()) {
            return new DropOwnership(Optional.empty(), found, Optional.empty());
        }
        Ownership.Facts f;
        try (Connection c = new SourceSlots(config.source()).connect()) {
            f = SourceOwners.read(config, c);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the owner of replication slot \"" + config.source().slot() + "\" and publication \""
                    + config.source().publication() + "\": " + e.getMessage(), e);
        }
        String file = configLabel == null ? "the pipeline file" : configLabel;
        if (!Ownership.slotMine(f, false)) {
            return new DropOwnership(Optional.of(Ownership.slotNotMine(f) + "; nothing removed: tidemark drop removes only what pipeline "
                    + f.pipeline() + " created; set source.slot in " + file + " to a name no other pipeline uses"), found, Optional.empty());
        }
        if (!found.publicationExists() || Ownership.publication(f) == Ownership.Publication.MINE) {
            return new DropOwnership(Optional.empty(), found, Optional.empty());
        }
        DropPlan.Inventory without = found.withoutPublication();
        return new DropOwnership(Optional.empty(), without, Optional.of("publication \"" + found.publication() + "\" is left as it is: "
                + (f.publicationRecord().isPresent() ? "it belongs to pipeline " + f.publicationRecord().get().pipeline()
                : "pipeline " + f.pipeline() + " did not create it")));
    }
}
