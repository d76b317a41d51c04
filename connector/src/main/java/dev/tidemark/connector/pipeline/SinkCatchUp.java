package dev.tidemark.connector.pipeline;

import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether the sink has applied every record capture sent before it stopped on a change it cannot follow: its stop line
 * says what was sent ("nothing from that change on was sent"), and what it asks next may take the table out of the
 * pipeline (a renamed table leaves {@code source.tables}), after which no sink reads its topic again. So then
 * {@link Sidecar#close()} lets the sink apply what capture sent, on the partitions it owns, before stopping it.
 * Pure.
 */
final class SinkCatchUp {
    private SinkCatchUp() {
    }

    /**
     * True when, on every partition in {@code assigned} that capture sent records to ({@code sent}: partition → the
     * offset after its last acknowledged record), the sink's next applied offset ({@code applied}) has reached it.
     */
    static boolean caughtUp(Map<TopicPartition, Long> sent, Map<TopicPartition, Long> applied, Set<TopicPartition> assigned) {
        for (Map.Entry<TopicPartition, Long> e : sent.entrySet()) {
            if (assigned.contains(e.getKey()) && applied.getOrDefault(e.getKey(), 0L) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The line for a catch-up that ran out of time: what was not applied ({@link #unapplied}), where it is (Kafka), why
     * it matters (once its table has left {@code source.tables} no sink reads it) and the command that applies it before
     * capture's line is followed: the sink alone on the unchanged pipeline file, until {@code tidemark status} shows
     * no lag.
     */
    static String notAppliedLine(String pipeline, Duration limit, String configFile, String unapplied) {
        return "sink " + pipeline + ": capture stopped on a change, and within " + limit.toSeconds() + " s the sink did not apply "
                + "every record capture sent before it; not applied: " + unapplied + ". They stay in Kafka, but once their "
                + "table has left source.tables no sink reads them: before following capture's line, run `tidemark sink --config "
                + configFile + "` until `tidemark status --config " + configFile + "` shows lag 0, then stop it";
    }

    /**
     * What the sink has not applied of what capture sent, on the partitions in {@code assigned}: one
     * {@code topic T partition P offsets A to B} per partition behind ({@code A} the sink's next offset, {@code B} the
     * last record sent), joined by {@code ", "}, in topic and partition order; empty when {@link #caughtUp}.
     */
    static String unapplied(Map<TopicPartition, Long> sent, Map<TopicPartition, Long> applied, Set<TopicPartition> assigned) {
        return sent.entrySet().stream()
                .filter(e -> assigned.contains(e.getKey()) && applied.getOrDefault(e.getKey(), 0L) < e.getValue())
                .sorted(Map.Entry.comparingByKey(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition)))
                .map(e -> "topic " + e.getKey().topic() + " partition " + e.getKey().partition() + " offsets "
                        + applied.getOrDefault(e.getKey(), 0L) + " to " + (e.getValue() - 1))
                .collect(Collectors.joining(", "));
    }
}
