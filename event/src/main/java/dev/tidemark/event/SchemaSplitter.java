package dev.tidemark.event;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Splits a JsonConverter document ({@code {"schema":{…},"payload":…}}) into its schema and payload, parsing the
 * schema once per distinct schema text. The schema is most of every record's bytes and rarely changes, so for each
 * stream (a topic's keys or values) the last schema's bytes are kept: when the next document starts with exactly
 * those bytes only the payload is parsed, and the cached schema node — the same instance every time — is returned.
 * Any other shape falls back to a full parse. Thread-safe.
 */
final class SchemaSplitter {
    private static final byte[] PREFIX = "{\"schema\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MIDDLE = ",\"payload\":".getBytes(StandardCharsets.US_ASCII);

    /** A document's two halves. */
    record Split(JsonNode schema, JsonNode payload) {
    }

    private record Cached(byte[] schemaBytes, JsonNode schema) {
    }

    private final ObjectMapper mapper;
    private final Map<String, Cached> last = new ConcurrentHashMap<>();

    SchemaSplitter(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    Split split(String stream, byte[] doc) throws IOException {
        Cached c = last.get(stream);
        if (c != null && startsWith(doc, PREFIX, 0)) {
            int end = PREFIX.length + c.schemaBytes().length;
            if (doc.length > end + MIDDLE.length + 1 && doc[doc.length - 1] == '}'
                    && Arrays.equals(doc, PREFIX.length, end, c.schemaBytes(), 0, c.schemaBytes().length)
                    && startsWith(doc, MIDDLE, end)) {
                int from = end + MIDDLE.length;
                return new Split(c.schema(), mapper.readTree(doc, from, doc.length - 1 - from));
            }
        }
        JsonNode full = mapper.readTree(doc);
        if (full == null || !full.isObject()) {
            throw new IOException("not a JSON object");
        }
        JsonNode schema = full.get("schema");
        if (schema != null && schema.isObject() && startsWith(doc, PREFIX, 0)) {
            remember(stream, doc, schema);
        }
        return new Split(schema, full.get("payload"));
    }

    private void remember(String stream, byte[] doc, JsonNode schema) throws IOException {
        try (JsonParser p = mapper.getFactory().createParser(doc)) {
            if (p.nextToken() != JsonToken.START_OBJECT || p.nextToken() != JsonToken.FIELD_NAME || p.nextToken() != JsonToken.START_OBJECT) {
                return;
            }
            long start = p.currentTokenLocation().getByteOffset();
            p.skipChildren();
            long end = p.currentLocation().getByteOffset();
            if (start == PREFIX.length && end > start && end <= doc.length) {
                last.put(stream, new Cached(Arrays.copyOfRange(doc, (int) start, (int) end), schema));
            }
        }
    }

    private static boolean startsWith(byte[] doc, byte[] prefix, int at) {
        return doc.length >= at + prefix.length && Arrays.equals(doc, at, at + prefix.length, prefix, 0, prefix.length);
    }
}
