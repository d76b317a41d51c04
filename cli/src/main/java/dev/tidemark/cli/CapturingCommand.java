package dev.tidemark.cli;

import dev.tidemark.connector.debezium.CaptureChoice;
import picocli.CommandLine.Mixin;

/**
 * The pipeline commands that capture ({@code run} and {@code capture}): they offer the choice for a replication slot and
 * stored offsets that disagree ({@link CaptureChoiceOptions}).
 */
abstract class CapturingCommand extends PipelineCommand {
    @Mixin
    CaptureChoiceOptions choice = new CaptureChoiceOptions();

    @Override
    final CaptureChoice captureChoice() {
        return choice.choice();
    }

    @Override
    final boolean capture() {
        return true;
    }
}
