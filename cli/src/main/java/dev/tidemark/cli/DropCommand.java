package dev.tidemark.cli;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.debezium.DropOwnership;
import dev.tidemark.connector.debezium.DropPlan;
import dev.tidemark.connector.debezium.PipelineDrop;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tidemark drop}: removes a stopped pipeline's replication slot and publication (and with {@code --topics} its
 * Kafka topics) and capture's offsets files in stateDir, so the source no longer retains WAL for it. Without
 * {@code --yes} it only lists what it would remove (exit 2); it refuses while capture holds the slot (exit 3); with
 * nothing left it says so (exit 0). It also removes Tidemark's other files of the pipeline in stateDir and restores the
 * replica identities Tidemark set to FULL, and drops the pipeline's signal table and schema-change trigger; with
 * {@code --topics} it removes the pipeline's records from the history topic its topicPrefix shares (the topic itself
 * only when no other pipeline's record is left in it) and clears the pipeline's stored offsets and table positions in
 * the target (the next {@code run} starts its new topics from the beginning). The target's rows are
 * never touched, and neither is a slot or publication the pipeline does not own ({@link DropOwnership}: another
 * pipeline's slot stops the drop, exit 3; a publication it did not create is left).
 */
@Command(name = "drop", mixinStandardHelpOptions = true,
        description = "Remove a stopped pipeline's replication slot, publication and capture offsets files (and its topics with "
                + "--topics, with the pipeline's stored offsets and table positions in the target), so the source stops retaining WAL "
                + "for it; restores the replica identities Tidemark set to FULL; the target's rows are left as they are. Without --yes it lists what it "
                + "would remove (exit 2). Refuses while capture is running (exit 3); exit 0 when nothing is left.")
final class DropCommand extends PipelineFileCommand {
    @Option(names = "--yes", description = "remove for real (without it: list what would be removed)")
    boolean yes;

    @Option(names = "--topics", description = "delete the pipeline's Kafka topics too")
    boolean topics;

    @Override
    int call(PipelineConfig cfg) {
        DropOwnership owned = DropOwnership.check(cfg, config.toString(), PipelineDrop.inspect(cfg, topics));
        if (owned.refusal().isPresent()) {
            System.err.println("tidemark: " + owned.refusal().get());
            return ExitCodes.RUNTIME;
        }
        owned.leftAlone().ifPresent(line -> System.out.println("pipeline " + cfg.name() + ": " + line));
        DropPlan plan = DropPlan.decide(owned.inventory(), yes);
        if (plan instanceof DropPlan.Refuse r) {
            System.err.println("tidemark: replication slot \"" + r.slot() + "\" is active (capture of pipeline " + cfg.name()
                    + " is running): stop it, then run tidemark drop again; nothing removed");
            return ExitCodes.RUNTIME;
        }
        if (plan instanceof DropPlan.NothingLeft n) {
            System.out.println("pipeline " + cfg.name() + ": nothing to remove (replication slot \"" + n.inventory().slot()
                    + "\", publication \"" + n.inventory().publication() + "\"" + (topics ? ", topics" : "")
                    + " and capture offsets files are already gone)");
            return ExitCodes.OK;
        }
        if (plan instanceof DropPlan.DryRun d) {
            System.out.println("pipeline " + cfg.name() + ": drop would remove");
            d.inventory().items().forEach(i -> System.out.println("  " + i));
            System.err.println("tidemark: nothing removed: run again with --yes to remove these");
            return ExitCodes.USAGE;
        }
        DropPlan.Remove remove = (DropPlan.Remove) plan;
        System.out.println("pipeline " + cfg.name() + ":");
        PipelineDrop.remove(cfg, remove.inventory()).forEach(line -> System.out.println("  " + line));
        return ExitCodes.OK;
    }
}
