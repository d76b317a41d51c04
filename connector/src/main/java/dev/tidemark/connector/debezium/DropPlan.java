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
     * @param stateFiles       the pipeline's files in stateDir that exist: capture's offsets files and what else
     *                         Tidemark keeps there (gap and replica identity records, the last reconcile, sink member locks)
     * @param identities       the tables whose replica identity Tidemark set to FULL and that still have it (restored)
     * @param target           what the pipeline stored in the target for its topics (only with {@code --topics})
     * @param objects          the other objects capture created on the source and in Kafka
     */
    record Inventory(String slot, boolean slotExists, boolean slotActive, long retainedWalBytes, String publication,
                     boolean publicationExists, List<String> topics, List<Path> stateFiles,
                     List<ReplicaIdentities.Replaced> identities, TargetLeftovers target, CaptureObjects objects) {
        public Inventory {
            topics = List.copyOf(topics);
            stateFiles = List.copyOf(stateFiles);
            identities = List.copyOf(identities);
        }

        public Inventory(String slot, boolean slotExists, boolean slotActive, long retainedWalBytes, String publication,
                         boolean publicationExists, List<String> topics, List<Path> stateFiles,
                         List<ReplicaIdentities.Replaced> identities, TargetLeftovers target) {
            this(slot, slotExists, slotActive, retainedWalBytes, publication, publicationExists, topics, stateFiles, identities, target,
                    CaptureObjects.NONE);
        }

        /** The same inventory with the publication left out (it is not the pipeline's). */
        Inventory withoutPublication() {
            return new Inventory(slot, slotExists, slotActive, retainedWalBytes, publication, false, topics, stateFiles, identities,
                    target, objects);
        }

        public Inventory(String slot, boolean slotExists, boolean slotActive, long retainedWalBytes, String publication,
                         boolean publicationExists, List<String> topics, List<Path> stateFiles) {
            this(slot, slotExists, slotActive, retainedWalBytes, publication, publicationExists, topics, stateFiles, List.of(),
                    TargetLeftovers.NONE);
        }

        boolean empty() {
            return !slotExists && !publicationExists && topics.isEmpty() && stateFiles.isEmpty() && identities.isEmpty()
                    && target.empty() && objects.empty();
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
            identities.forEach(i -> out.add("REPLICA IDENTITY FULL on " + i.schema() + "." + i.table() + " (set by Tidemark; "
                    + i.restoreClause() + " is restored)"));
            objects.signalTable().ifPresent(t -> out.add("signal table " + t));
            objects.ddlTrigger().forEach(o -> out.add(o + " (the schema-change trigger)"));
            topics.forEach(t -> out.add("topic " + t));
            out.addAll(objects.history().items());
            target.offsetTopics().forEach(t -> out.add("stored offsets for topic " + t + " in target " + target.target()));
            target.positionTables().forEach(t -> out.add("table positions of " + t + " in target " + target.target()));
            stateFiles.forEach(f -> out.add(label(f) + " " + f));
            return out;
        }
    }

    /**
     * What a pipeline stored in its target besides the rows: its rows of {@code tidemark_offsets} for its topics and the
     * rows of {@code tidemark_table_positions} for its tables.
     *
     * @param target the target's URL, masked
     */
    record TargetLeftovers(String target, List<String> offsetTopics, List<String> positionTables) {
        static final TargetLeftovers NONE = new TargetLeftovers("", List.of(), List.of());

        public TargetLeftovers {
            offsetTopics = List.copyOf(offsetTopics);
            positionTables = List.copyOf(positionTables);
        }

        boolean empty() {
            return offsetTopics.isEmpty() && positionTables.isEmpty();
        }
    }

    /**
     * The other objects capture created for the pipeline: its signal table on the source ({@link SnapshotSignals}), its
     * schema-change trigger's event triggers, function and key table ({@link DdlTrigger}, one line each), and what to
     * do with its records in the history topic ({@link HistoryCleanup}; only with {@code --topics}).
     */
    record CaptureObjects(java.util.Optional<String> signalTable, List<String> ddlTrigger, HistoryCleanup history) {
        static final CaptureObjects NONE = new CaptureObjects(java.util.Optional.empty(), List.of(), HistoryCleanup.NOTHING);

        public CaptureObjects {
            ddlTrigger = List.copyOf(ddlTrigger);
        }

        boolean empty() {
            return signalTable.isEmpty() && ddlTrigger.isEmpty() && history instanceof HistoryCleanup.Nothing;
        }
    }

    /** "capture offsets file" for {@code <name>.offsets} and its siblings, "state file" for the others. */
    static String label(Path file) {
        return file.getFileName().toString().contains(".offsets") ? "capture offsets file" : "state file";
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
