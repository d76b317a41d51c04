package dev.tidemark.connect;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * A record's key or value as the JSON bytes the sink's decoder reads ({@code JsonConverter} with
 * {@code schemas.enable=true}: {@code {"schema": …, "payload": …}}), whatever converter the connector was given:
 * <ul>
 *   <li>{@code ByteArrayConverter} (recommended: no work at all): the bytes as they are in Kafka;</li>
 *   <li>{@code StringConverter}: the text's UTF-8 bytes;</li>
 *   <li>{@code JsonConverter} with schemas (Connect's default): the value with its schema, written back by a
 *       {@link JsonConverter} with schemas on and nulls kept null ({@code replace.null.with.default=false}, as
 *       capture writes them), which gives the envelope the producer wrote.</li>
 * </ul>
 * A value without a schema (a {@code JsonConverter} with {@code schemas.enable=false}) has lost the types the sink
 * needs: {@link DataException} naming the setting. Not thread-safe (one per task).
 */
final class RecordBytes {
    private final JsonConverter keys = new JsonConverter();
    private final JsonConverter values = new JsonConverter();

    RecordBytes() {
        Map<String, String> conf = Map.of("schemas.enable", "true", "replace.null.with.default", "false", "schemas.cache.size", "10000");
        keys.configure(conf, true);
        values.configure(conf, false);
    }

    byte[] key(String topic, Schema schema, Object key) {
        return bytes(keys, topic, schema, key);
    }

    byte[] value(String topic, Schema schema, Object value) {
        return bytes(values, topic, schema, value);
    }

    private static byte[] bytes(JsonConverter converter, String topic, Schema schema, Object data) {
        if (data == null) {
            return null;
        }
        if (data instanceof byte[] b) {
            return b;
        }
        if (data instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        if (schema == null) {
            throw new DataException("record has no schema (a " + data.getClass().getSimpleName() + "): the connector's"
                    + " converter must keep schemas; use key.converter/value.converter"
                    + " org.apache.kafka.connect.converters.ByteArrayConverter, or JsonConverter with schemas.enable=true");
        }
        return converter.fromConnectData(topic, schema, data);
    }
}
