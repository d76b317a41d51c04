package dev.tidemark.connector.watermark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.tidemark.event.EnvelopeDecoder;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.RowSchema;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The last key committed inside a window, as the control table's {@code resume_key} text: a JSON array of the key
 * values in key-column order, each encoded as a change event encodes it, so it decodes back to the same Java values
 * the chunk query binds. Stateless and thread-safe.
 */
final class ResumeKey {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ResumeKey() {
    }

    /** {@code key} (values in {@code keys} order) as JSON. */
    static String encode(List<Object> key, RowSchema schema, List<String> keys) {
        ArrayNode a = JSON.createArrayNode();
        for (int i = 0; i < keys.size(); i++) {
            a.add(EnvelopeEncoder.encodeValue(schema.column(keys.get(i)).orElseThrow().type(), key.get(i)));
        }
        return a.toString();
    }

    /** The key values of {@code json} in the schema's key-column order; null for null (start at the first key). */
    static List<Object> decode(String json, RowSchema schema) throws IOException {
        if (json == null) {
            return null;
        }
        JsonNode a = JSON.readTree(json);
        EnvelopeDecoder decoder = new EnvelopeDecoder();
        List<Object> key = new ArrayList<>();
        for (int i = 0; i < schema.keyColumns().size(); i++) {
            key.add(decoder.decodeValue(schema.column(schema.keyColumns().get(i)).orElseThrow().type(), a.get(i)));
        }
        return key;
    }
}
