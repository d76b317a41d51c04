package dev.tidemark.event;

import java.nio.charset.StandardCharsets;

/** Where a record came from in Kafka, for error messages: topic, partition, offset and (abbreviated) key. */
public record EventOrigin(String topic, int partition, long offset, byte[] key) {
    private static final int KEY_CHARS = 200;

    public String describe() {
        return "topic " + topic + " partition " + partition + " offset " + offset + " key " + keyText();
    }

    /** The key's payload part when it is a schema+payload envelope, else the raw text, abbreviated. */
    public String keyText() {
        if (key == null) {
            return "null";
        }
        String s = new String(key, StandardCharsets.UTF_8);
        int p = s.lastIndexOf("\"payload\":");
        if (p >= 0) {
            s = s.substring(p + "\"payload\":".length(), s.length() - (s.endsWith("}") ? 1 : 0));
        }
        return s.length() <= KEY_CHARS ? s : s.substring(0, KEY_CHARS) + "…";
    }
}
