package dev.tidemark.cli;

import dev.tidemark.connector.pipeline.SinkChoices;
import dev.tidemark.sink.kafka.ReplayFrom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Apply only, optionally rewinding first. */
@Command(name = "sink", mixinStandardHelpOptions = true,
        description = "Run only the sink writer: Kafka topics → JDBC target, offsets kept in the target.")
final class SinkCommand extends PipelineCommand {
    @Option(names = "--replay-from", paramLabel = "WHERE",
            description = "rewind once before consuming: earliest | <partition:offset,…> | <topic:partition:offset,…> | <ISO instant>;"
                    + " each partition starts at the earlier of this point and the target's stored offset (never forward past"
                    + " records the target has not applied; a timestamp with no later record resumes at the stored offset)")
    String replayFrom;

    @Option(names = "--skip-unapplied",
            description = "with --replay-from: start exactly at the replay point even where it lies past the target's stored"
                    + " offset; the records in between are never applied")
    boolean skipUnapplied;

    @Option(names = "--accept-retention-gap",
            description = "where Kafka deleted records the target never applied (stored offset below the earliest offset, or"
                    + " no stored offset and an earliest offset above 0), start at the earliest offset instead of stopping;"
                    + " repair the target afterwards with `tidemark reconcile --config FILE --repair --apply`")
    boolean acceptRetentionGap;

    @Option(names = "--member-id", paramLabel = "ID",
            description = "this sink's member id in the pipeline's consumer group (group.instance.id <pipeline>-ID); every"
                    + " running sink of a pipeline needs its own. Default: host name plus the lowest free slot in the state directory")
    String memberId;

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

    @Override
    SinkChoices sinkChoices() {
        return new SinkChoices(memberId, acceptRetentionGap, skipUnapplied);
    }
}
