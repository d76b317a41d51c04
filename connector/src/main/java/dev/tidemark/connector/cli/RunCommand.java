package dev.tidemark.connector.cli;

import picocli.CommandLine.Command;

/** Capture and apply in one process: the sidecar. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run capture (PostgreSQL → Kafka) and the sink writer (Kafka → target) in one process. "
                + "SIGTERM drains, commits and exits 0.")
final class RunCommand extends PipelineCommand {
    @Override
    boolean capture() {
        return true;
    }

    @Override
    boolean sink() {
        return true;
    }
}
