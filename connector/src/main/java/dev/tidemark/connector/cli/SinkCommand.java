package dev.tidemark.connector.cli;

import dev.tidemark.sink.kafka.ReplayFrom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Apply only, optionally rewinding first. */
@Command(name = "sink", mixinStandardHelpOptions = true,
        description = "Run only the sink writer: Kafka topics → JDBC target, offsets kept in the target.")
final class SinkCommand extends PipelineCommand {
    @Option(names = "--replay-from", paramLabel = "WHERE",
            description = "rewind once before consuming: earliest | <partition:offset,…> | <topic:partition:offset,…> | <ISO instant>")
    String replayFrom;

    @Override
    boolean capture() {
        return false;
    }

    @Override
    boolean sink() {
        return true;
    }

    @Override
    ReplayFrom replay() {
        return replayFrom == null ? new ReplayFrom.Stored() : ReplayFrom.parse(replayFrom);
    }
}
