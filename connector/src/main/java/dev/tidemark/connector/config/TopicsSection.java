package dev.tidemark.connector.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.event.TableId;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code kafka.topics} (an optional mapping {@code schema.table: topic}, one entry per captured table whose topic
 * is named explicitly) and checks every captured table's topic by {@link TopicNames}, each problem reported through
 * the {@link ConfigReader} naming its key: an entry for a table not in {@code source.tables}, a name Kafka refuses
 * ({@code kafka.topics.<table>}, or {@code kafka.topicPrefix} for a default name), two tables on one topic.
 */
final class TopicsSection {
    private TopicsSection() {
    }

    /** The explicit topics; every problem goes to {@code reader}. */
    static Map<TableId, String> read(ConfigReader reader, JsonNode kafka, String prefix, List<TableId> tables) {
        JsonNode n = kafka.path("topics");
        Map<TableId, String> explicit = TableMappingReader.read(reader, n, "kafka.topics", tables, TopicNames::invalid, "{public.orders: orders}");
        return n.isMissingNode() || n.isNull() || n.isObject() ? check(reader, prefix, tables, explicit) : explicit;
    }

    private static Map<TableId, String> check(ConfigReader reader, String prefix, List<TableId> tables, Map<TableId, String> explicit) {
        if (prefix == null) {
            return explicit;
        }
        for (String problem : TopicNames.problems(prefix, tables, explicit)) {
            reader.problem("Invalid configuration " + (problem.startsWith("tables ") ? "kafka.topics" : "kafka.topicPrefix") + ": " + problem);
        }
        return explicit;
    }
}
