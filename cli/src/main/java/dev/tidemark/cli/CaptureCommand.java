package dev.tidemark.cli;

import dev.tidemark.connector.debezium.CaptureChoice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Capture only. */
@Command(name = "capture", mixinStandardHelpOptions = true,
        description = "Run only capture: PostgreSQL logical decoding → one Kafka topic per table.")
final class CaptureCommand extends PipelineCommand {
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
        return false;
    }
}
