package dev.tidemark.connector.debezium;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code tidemark drop} does with what it found of a pipeline ({@link Inventory}): refuse while capture holds
 * the slot, report that nothing is left, list what it would remove (without {@code --yes}), or remove it.
 *
 * <p>Pure: {@link #decide} has no I/O; {@link PipelineDrop} reads the inventory and carries the plan out.
 */
public sealed interface DropPlan {
    /** The slot is in use (capture is running): nothing may be removed. */
    record Refuse(String slot) implements DropPlan {
    }

    /** Nothing of the pipeline is left: drop already happened (or the pipeline never ran). */
    record NothingLeft(Inventory inventory) implements DropPlan {
    }

    /** Without {@code --yes}: what would be removed, nothing removed. */
    record DryRun(Inventory inventory) implements DropPlan {
    }

    /** With {@code --yes}: remove every item of the inventory. */
    record Remove(Inventory inventory) implements DropPlan {
    }

    /**
     * What is there of a pipeline.
     *
     * @param slot             the replication slot's name
     * @param slotExists       whether the slot exists
     * @param slotActive       whether a walsender holds it (capture is running)
     * @param retainedWalBytes WAL the slot retains ({@code pg_current_wal_lsn() - restart_lsn}), or -1 when unknown
     * @param publication      the publication's name
     * @param publicationExists whether the publication exists
     * @param topics           the pipeline's topics that exist (empty when topics were not asked for)
     * @param stateFiles       capture's offsets files in stateDir that exist
     */
    record Inventory(String slot, boolean slotExists, boolean slotActive, long retainedWalBytes, String publication,
                     boolean publicationExists, List<String> topics, List<Path> stateFiles) {
        public Inventory {
            topics = List.copyOf(topics);
            stateFiles = List.copyOf(stateFiles);
        }

        boolean empty() {
            return !slotExists && !publicationExists && topics.isEmpty() && stateFiles.isEmpty();
        }

        /** One line per item that exists, in removal order. */
        public List<String> items() {
            List<String> out = new ArrayList<>();
            if (slotExists) {
                out.add("replication slot \"" + slot + "\"" + (retainedWalBytes < 0 ? "" : String.format(" (retains %,d bytes of WAL)", retainedWalBytes)));
            }
            if (publicationExists) {
                out.add("publication \"" + publication + "\"");
            }
            topics.forEach(t -> out.add("topic " + t));
            stateFiles.forEach(f -> out.add("capture offsets file " + f));
            return out;
        }
    }

    /** The plan for {@code inventory}; {@code yes} is the user's {@code --yes}. */
    public static DropPlan decide(Inventory inventory, boolean yes) {
        if (inventory.slotExists() && inventory.slotActive()) {
            return new Refuse(inventory.slot());
        }
        if (inventory.empty()) {
            return new NothingLeft(inventory);
        }
        return yes ? new Remove(inventory) : new DryRun(inventory);
    }
}
