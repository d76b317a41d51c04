package dev.tidemark.connector.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.event.TableId;
import java.util.Iterator;
import java.util.LinkedHashMap;
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
        Map<TableId, String> explicit = new LinkedHashMap<>();
        JsonNode n = kafka.path("topics");
        if (n.isMissingNode() || n.isNull()) {
            return check(reader, prefix, tables, explicit);
        }
        if (!n.isObject()) {
            reader.invalid("kafka.topics", n.toString(), "expected a mapping of schema.table: topic, such as {public.orders: orders}");
            return explicit;
        }
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = "kafka.topics." + e.getKey();
            TableId table = TableId.parse(e.getKey());
            String topic = reader.substitute(key, e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString());
            if (!tables.contains(table)) {
                reader.invalid(key, topic, e.getKey() + " is not in source.tables " + tables);
            } else if (TopicNames.invalid(topic).isPresent()) {
                reader.invalid(key, topic, TopicNames.invalid(topic).get());
            } else {
                explicit.put(table, topic);
            }
        }
        return check(reader, prefix, tables, explicit);
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
