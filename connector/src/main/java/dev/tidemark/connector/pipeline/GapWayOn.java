package dev.tidemark.connector.pipeline;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.GapAdvice;
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
        return "accept the gap explicitly (`tidemark " + command + " --config " + configLabel + " --accept-retention-gap`: "
                + "those partitions start at their earliest offset) and then" + (tables.isPresent() ? ", while it runs," : "") + " "
                + rebuild(configLabel, tables);
    }

    /** What rebuilds the rows a gap lost: the tables' re-snapshot, or without tables the repair of the target. */
    static String rebuild(String configLabel, Optional<List<TableId>> tables) {
        if (tables.isPresent()) {
            return "snapshot the table again (`tidemark snapshot --config " + configLabel
                    + tables.get().stream().map(t -> " --table " + t).collect(Collectors.joining()) + "`: the snapshot rewrites its rows"
                    + " and removes the target rows the source no longer holds, while the other tables stream)";
        }
        return "repair the target from the source (`tidemark reconcile --config " + configLabel + " --repair --apply`)";
    }

    /** The sink's {@link GapAdvice} for {@code config} run by {@code command} ({@code run} or {@code sink}) from {@code configLabel}. */
    public static GapAdvice advice(PipelineConfig config, String command, String configLabel) {
        Map<String, TableId> byTopic = tablesByTopic(config);
        return new GapAdvice() {
            @Override
            public String wayOn(Collection<String> topics) {
                return text(command, configLabel, tables(topics, byTopic));
            }

            @Override
            public String rebuild(Collection<String> topics) {
                return GapWayOn.rebuild(configLabel, tables(topics, byTopic));
            }
        };
    }
}
