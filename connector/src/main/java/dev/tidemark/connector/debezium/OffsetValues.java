package dev.tidemark.connector.debezium;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Edits of the engine's stored offsets as they sit in its offsets file: each entry's value is a JSON object (the
 * source offset). Pure: bytes in, bytes out.
 */
final class OffsetValues {
    private static final ObjectMapper JSON = new ObjectMapper();

    private OffsetValues() {
    }

    /**
     * {@code entries} with each value that is a JSON object passed to {@code edit}, which changes it in place and says
     * whether it did; a value it did not change, a null and a value that is not a JSON object stay the same bytes.
     */
    static Map<ByteBuffer, ByteBuffer> edited(Map<ByteBuffer, ByteBuffer> entries, Predicate<ObjectNode> edit) {
        Map<ByteBuffer, ByteBuffer> out = new HashMap<>();
        entries.forEach((k, v) -> out.put(k, v == null ? null : edited(v, edit)));
        return out;
    }

    private static ByteBuffer edited(ByteBuffer value, Predicate<ObjectNode> edit) {
        ByteBuffer d = value.duplicate();
        byte[] bytes = new byte[d.remaining()];
        d.get(bytes);
        try {
            JsonNode n = JSON.readTree(bytes);
            return n instanceof ObjectNode o && edit.test(o) ? ByteBuffer.wrap(JSON.writeValueAsBytes(o)) : value;
        } catch (IOException e) {
            return value; // not JSON: names no position, left as it is
        }
    }
}
