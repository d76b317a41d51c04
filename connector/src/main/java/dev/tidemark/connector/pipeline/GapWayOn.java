package dev.tidemark.connector.pipeline;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The way on after a stored offset past the end of a topic or below its log start (records the target never applied
 * are gone from Kafka): accept the gap explicitly, then rebuild what is missing. Where every topic at fault carries a
 * captured table, the rebuild is that table's re-snapshot into the running pipeline ({@code tidemark snapshot --table},
 * whose sweep also removes the target rows the source no longer holds); where a topic names no captured table, the
 * repair of the whole target ({@code tidemark reconcile --repair --apply}).
 *
 * <p>Pure.
 */
public final class GapWayOn {
    private GapWayOn() {
    }

    /** Each of the pipeline's topics with its table. */
    public static Map<String, TableId> tablesByTopic(PipelineConfig config) {
        return config.source().tables().stream().collect(Collectors.toMap(config::topicFor, t -> t, (a, b) -> a));
    }

    /** The tables of {@code topics}, sorted, or empty when one of them carries no table of {@code byTopic}. */
    public static Optional<List<TableId>> tables(Collection<String> topics, Map<String, TableId> byTopic) {
        TreeSet<String> names = new TreeSet<>();
        List<TableId> out = new ArrayList<>();
        for (String topic : new TreeSet<>(topics)) {
            TableId t = byTopic.get(topic);
            if (t == null) {
                return Optional.empty();
            }
            if (names.add(t.toString())) {
                out.add(t);
            }
        }
        return out.isEmpty() ? Optional.empty() : Optional.of(out);
    }

    /**
     * "accept the gap explicitly (`tidemark COMMAND --config F --accept-retention-gap`…) and then …": with
     * {@code tables}, the re-snapshot of those tables while it runs; without, the repair.
     */
    public static String text(String command, String configLabel, Optional<List<TableId>> tables) {
        String accept = "accept the gap explicitly (`tidemark " + command + " --config " + configLabel + " --accept-retention-gap`: "
                + "those partitions start at their earliest offset)";
        if (tables.isPresent()) {
            return accept + " and then, while it runs, snapshot the table again (`tidemark snapshot --config " + configLabel
                    + tables.get().stream().map(t -> " --table " + t).collect(Collectors.joining()) + "`: the snapshot rewrites its rows"
                    + " and removes the target rows the source no longer holds, while the other tables stream)";
        }
        return accept + " and then repair the target from the source (`tidemark reconcile --config " + configLabel + " --repair --apply`)";
    }
}
