package dev.tidemark.sink.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.apache.kafka.common.TopicPartition;

/** The JSON form of a {@link HistoryRecord}; see there. */
final class HistoryJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private HistoryJson() {
    }

    static byte[] encode(HistoryRecord r) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("version", HistoryRecord.VERSION);
        n.put("topic", r.partition().topic());
        n.put("partition", r.partition().partition());
        n.put("kind", r instanceof HistoryRecord.Complete ? "complete" : "gap");
        n.put("offset", r.offset());
        if (r instanceof HistoryRecord.Complete c) {
            n.put("cause", c.cause());
        }
        n.put("at", r.at().toString());
        try {
            return MAPPER.writeValueAsBytes(n);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode history record " + r, e);
        }
    }

    static HistoryRecord decode(byte[] value) {
        JsonNode n;
        try {
            n = MAPPER.readTree(value);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a history record: " + e.getMessage(), e);
        }
        if (n == null || n.path("version").asInt(-1) != HistoryRecord.VERSION) {
            throw new IllegalArgumentException("history record of unknown version " + (n == null ? "(empty)" : n.path("version"))
                    + " (this Tidemark reads version " + HistoryRecord.VERSION + ")");
        }
        for (String field : new String[] {"topic", "partition", "kind", "offset", "at"}) {
            if (!n.hasNonNull(field)) {
                throw new IllegalArgumentException("history record without " + field + ": " + n);
            }
        }
        TopicPartition tp = new TopicPartition(n.get("topic").asText(), n.get("partition").asInt());
        Instant at;
        try {
            at = Instant.parse(n.get("at").asText());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("history record with an unreadable time: " + n, e);
        }
        return switch (n.get("kind").asText()) {
            case "complete" -> new HistoryRecord.Complete(tp, n.get("offset").asLong(), n.path("cause").asText("a snapshot"), at);
            case "gap" -> new HistoryRecord.Gap(tp, n.get("offset").asLong(), at);
            default -> throw new IllegalArgumentException("history record of unknown kind " + n.get("kind") + ": " + n);
        };
    }
}
