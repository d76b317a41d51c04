package dev.tidemark.connector.debezium;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * Who created a replication slot and a publication: a pipeline's name and the random id it created once and keeps in
 * its state folder ({@link OwnerFile}), with the names of the slot and of the publication it created (null: a
 * publication it uses but did not create). The same record, encoded by {@link #encode()}, is the comment Tidemark
 * puts on a publication it created ({@code COMMENT ON PUBLICATION}): a slot has no comment, so the slot's owner is read
 * from the publication comment that names it.
 *
 * <p>Encoding: {@code tidemark-owner v1 {"pipeline":…,"id":…,"slot":…,"publication":…}}; {@link #decode} reads it and
 * gives empty for any other text (a comment someone else wrote).
 */
public record SlotOwner(String pipeline, String id, String slot, String publication) {
    static final String PREFIX = "tidemark-owner v1 ";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The owner id for messages: its first 8 characters. */
    public String shortId() {
        return id.length() <= 8 ? id : id.substring(0, 8);
    }

    /** The same owner, now of {@code slot} and {@code publication} (null: a publication it did not create). */
    SlotOwner of(String slot, String publication) {
        return new SlotOwner(pipeline, id, slot, publication);
    }

    String encode() {
        ObjectNode o = JSON.createObjectNode();
        o.put("pipeline", pipeline);
        o.put("id", id);
        o.put("slot", slot);
        if (publication != null) {
            o.put("publication", publication);
        }
        return PREFIX + o;
    }

    /** The owner {@code text} records, or empty when it is not Tidemark's record (or damaged). */
    static Optional<SlotOwner> decode(String text) {
        if (text == null || !text.startsWith(PREFIX)) {
            return Optional.empty();
        }
        try {
            JsonNode o = JSON.readTree(text.substring(PREFIX.length()));
            if (!o.path("pipeline").isTextual() || !o.path("id").isTextual() || !o.path("slot").isTextual()) {
                return Optional.empty();
            }
            String pub = o.path("publication").isTextual() ? o.get("publication").asText() : null;
            return Optional.of(new SlotOwner(o.get("pipeline").asText(), o.get("id").asText(), o.get("slot").asText(), pub));
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }
}
