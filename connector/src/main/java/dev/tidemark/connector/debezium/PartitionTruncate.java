package dev.tidemark.connector.debezium;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * What a {@code TRUNCATE} of one partition of a captured partitioned table means for capture. Pure.
 *
 * <p>PostgreSQL publishes no such {@code TRUNCATE} when the publication publishes via the root, so the target would
 * keep the partition's rows; {@link PartitionTruncateTrigger}'s message tells capture. Capture stops with one line
 * naming the partition, the root and {@code tidemark snapshot --config F --table ROOT}, before the message is marked
 * processed. Met again after that snapshot was requested (the signal's recorded position is later than the message),
 * the truncate is followed: the snapshot reads the root again and its sweep removes the target rows the source no
 * longer holds. A message whose root is not captured by this pipeline is not capture's to judge, and neither is one
 * written by a {@code TRUNCATE} of the root itself ({@link RootTruncates}: the root's own truncate event carries it).
 */
final class PartitionTruncate {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private PartitionTruncate() {
    }

    /** One message of {@link PartitionTruncateTrigger}: the pipeline, the truncated partition and its root. */
    record Message(String pipeline, long oid, TableId partition, TableId root) {
        /** Parses the message's JSON; an unreadable one is an {@link IllegalArgumentException}. */
        static Message parse(byte[] json) {
            JsonNode n;
            try {
                n = MAPPER.readTree(json);
            } catch (IOException e) {
                throw new IllegalArgumentException("truncate message is not JSON: " + e.getMessage(), e);
            }
            if (n == null || n.path("v").asInt(0) != 1 || !n.path("root").isObject()) {
                throw new IllegalArgumentException("truncate message of an unknown version");
            }
            return new Message(n.path("pipeline").asText(""), n.path("oid").asLong(), new TableId(n.path("schema").asText(""),
                    n.path("table").asText("")), new TableId(n.path("root").path("schema").asText(""), n.path("root").path("table").asText("")));
        }
    }

    /** What capture does with one message. */
    sealed interface Outcome {
    }

    /** Not this pipeline's to act on: mark it processed. */
    record Ignore() implements Outcome {
    }

    /** Followed by the snapshot requested after it: log {@code note}, mark it processed. */
    record Follow(String note) implements Outcome {
    }

    /** Stop capture with this line before the message is marked processed. */
    record Stop(String line) implements Outcome {
    }

    /**
     * The outcome of {@code m}.
     *
     * @param captured          the pipeline's {@code source.tables}
     * @param coveredByRoot     the message was written by a {@code TRUNCATE} of its root, whose event capture has seen
     * @param snapshotRequested whether a snapshot of the root was requested after the message (asked only for a stop)
     * @param config            the pipeline file as the user named it, for the command
     */
    static Outcome decide(Message m, String pipeline, Collection<TableId> captured, boolean coveredByRoot,
                          BooleanSupplier snapshotRequested, String config) {
        if (!m.pipeline().equals(pipeline) || !captured.contains(m.root()) || coveredByRoot) {
            return new Ignore();
        }
        if (snapshotRequested.getAsBoolean()) {
            return new Follow("a snapshot of " + m.root() + " was requested after partition " + m.partition() + " was truncated: "
                    + "it reads " + m.root() + " again and removes the target rows the source no longer holds");
        }
        return new Stop(stopLine(m.partition(), m.root(), config));
    }

    /** The line capture stops with after {@code partition} of {@code root} was truncated. */
    static String stopLine(TableId partition, TableId root, String config) {
        return "capture stopped: partition " + partition + " of captured table " + root + " was truncated at the source, and "
                + "PostgreSQL publishes no TRUNCATE of one partition, so the target still holds its rows: run " + snapshotCommand(root, config)
                + " (it reads " + root + " again and removes the rows the source no longer holds)";
    }

    /**
     * The line that says at start, in catalog-comparison mode, that a {@code TRUNCATE} of one partition of the captured
     * partitioned tables {@code roots} is not seen, and what to run after one.
     */
    static String catalogModeLine(String pipeline, List<TableId> roots, String config) {
        return "capture " + pipeline + ": a TRUNCATE of one partition of " + roots.stream().map(TableId::toString)
                .collect(Collectors.joining(", ")) + " is not seen in catalog-comparison mode (PostgreSQL publishes none, and the "
                + "trigger that reports one needs the event-trigger mode's superuser): the target keeps its rows until you run "
                + roots.stream().map(r -> snapshotCommand(r, config)).collect(Collectors.joining(" or "));
    }

    private static String snapshotCommand(TableId root, String config) {
        return "`tidemark snapshot --config " + (config == null ? "FILE" : config) + " --table " + root + "`";
    }
}
