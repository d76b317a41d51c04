package dev.tidemark.cli;

import dev.tidemark.connector.pipeline.SinkChoices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Capture and apply in one process: the sidecar. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run capture (PostgreSQL → Kafka) and the sink writer (Kafka → target) in one process. "
                + "SIGTERM drains, commits and exits 0.")
final class RunCommand extends CapturingCommand {
    @Option(names = "--accept-retention-gap",
            description = "where the target's stored offset is past a topic's end (topic deleted and re-created) or Kafka deleted"
                    + " records the target never applied, start at the earliest offset instead of stopping (the gap is recorded in"
                    + " the target); repair the target afterwards with `tidemark reconcile --config FILE --repair --apply`")
    boolean acceptRetentionGap;

    @Override
    SinkChoices sinkChoices() {
        return new SinkChoices(null, acceptRetentionGap, false);
    }

    @Override
    boolean sink() {
        return true;
    }
}
