package dev.tidemark.cli;

import picocli.CommandLine.Command;

/** Capture only. */
@Command(name = "capture", mixinStandardHelpOptions = true,
        description = "Run only capture: PostgreSQL logical decoding → one Kafka topic per table.")
final class CaptureCommand extends CapturingCommand {
    @Override
    boolean sink() {
        return false;
    }
}
