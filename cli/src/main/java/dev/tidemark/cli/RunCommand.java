package dev.tidemark.cli;

import dev.tidemark.connector.debezium.CaptureChoice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Capture and apply in one process: the sidecar. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run capture (PostgreSQL → Kafka) and the sink writer (Kafka → target) in one process. "
                + "SIGTERM drains, commits and exits 0.")
final class RunCommand extends PipelineCommand {
    @Mixin
    CaptureChoiceOptions choice = new CaptureChoiceOptions();

    @Override
    CaptureChoice captureChoice() {
        return choice.choice();
    }

    @Override
    boolean capture() {
        return true;
    }

    @Override
    boolean sink() {
        return true;
    }
}
