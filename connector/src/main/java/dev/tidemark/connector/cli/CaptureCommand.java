package dev.tidemark.connector.cli;

import picocli.CommandLine.Command;

/** Capture only. */
@Command(name = "capture", mixinStandardHelpOptions = true,
        description = "Run only capture: PostgreSQL logical decoding → one Kafka topic per table.")
final class CaptureCommand extends PipelineCommand {
    @Override
    boolean capture() {
        return true;
    }

    @Override
    boolean sink() {
        return false;
    }
}
