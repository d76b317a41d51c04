package dev.tidemark.connector.debezium;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * Writes a Connect value as the bytes Kafka's {@link JsonConverter} writes with {@code schemas.enable=true},
 * {@code replace.null.with.default=false} and {@code decimal.format=BASE64} ({@code {"schema":…,"payload":…}}), but in
 * one pass: the payload is streamed straight to bytes (no intermediate tree), and each schema's JSON is rendered once
 * (by {@link JsonConverter#asJsonSchema}) and its bytes reused for every record that carries the same schema object.
 * The output is byte for byte the converter's ({@code ConnectJsonWriterTest} compares them).
 *
 * <p>Not thread-safe: one instance per thread (capture uses one on the engine's consumer thread). Values that do not
 * match their schema raise {@link DataException}, as the converter does.
 */
final class ConnectJsonWriter {
    private static final byte[] SCHEMA_PREFIX = "{\"schema\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] PAYLOAD_PREFIX = ",\"payload\":".getBytes(StandardCharsets.UTF_8);
    /** Schemas are immutable and Debezium keeps one object per table version: a few entries; cleared if it grows. */
    private static final int SCHEMA_CACHE_LIMIT = 10_000;

    private final JsonConverter schemas = new JsonConverter();
    private final ObjectMapper mapper = new ObjectMapper();
    private final JsonFactory factory = mapper.getFactory();
    private final Map<Schema, byte[]> schemaBytes = new IdentityHashMap<>();
    private static final int INITIAL_BUFFER = 4096;
    /** After an event larger than this the buffer is dropped, so one large row does not stay on the heap. */
    private static final int KEEP_BUFFER = 1 << 20;
    private ByteArrayOutputStream out = new ByteArrayOutputStream(INITIAL_BUFFER);

    ConnectJsonWriter() {
        schemas.configure(Map.of("schemas.enable", "true", "replace.null.with.default", "false", "schemas.cache.size", "10000"), false);
    }

    /** The envelope bytes for {@code value} of {@code schema}; null when both are null (a tombstone), as the converter. */
    byte[] write(Schema schema, Object value) {
        if (schema == null) {
            if (value == null) {
                return null;
            }
            throw new DataException("a record without a schema cannot be written with schemas enabled: " + value.getClass().getName());
        }
        out.reset();
        out.writeBytes(SCHEMA_PREFIX);
        out.writeBytes(schemaJson(schema));
        out.writeBytes(PAYLOAD_PREFIX);
        try (JsonGenerator g = factory.createGenerator(out)) {
            payload(g, schema, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        out.write('}');
        byte[] bytes = out.toByteArray();
        if (bytes.length > KEEP_BUFFER) {
            out = new ByteArrayOutputStream(INITIAL_BUFFER);
        }
        return bytes;
    }

    private byte[] schemaJson(Schema schema) {
        byte[] b = schemaBytes.get(schema);
        if (b == null) {
            if (schemaBytes.size() >= SCHEMA_CACHE_LIMIT) {
                schemaBytes.clear();
            }
            try {
                b = mapper.writeValueAsBytes(schemas.asJsonSchema(schema));
            } catch (IOException e) {
                throw new DataException("cannot render the schema " + schema.name() + " as JSON: " + e.getMessage(), e);
            }
            schemaBytes.put(schema, b);
        }
        return b;
    }

    /** JsonConverter's {@code convertToJson}, writing instead of building nodes. */
    private void payload(JsonGenerator g, Schema schema, Object value) throws IOException {
        if (value == null) {
            if (!schema.isOptional()) {
                throw new DataException("Conversion error: null value for field that is required and has no default value");
            }
            g.writeNull();
            return;
        }
        String name = schema.name();
        if (name != null && logical(g, name, schema, value)) {
            return;
        }
        try {
            switch (schema.type()) {
                case INT8 -> g.writeNumber((int) (Byte) value);
                case INT16 -> g.writeNumber((short) (Short) value);
                case INT32 -> g.writeNumber((int) (Integer) value);
                case INT64 -> g.writeNumber((long) (Long) value);
                case FLOAT32 -> g.writeNumber((float) (Float) value);
                case FLOAT64 -> g.writeNumber((double) (Double) value);
                case BOOLEAN -> g.writeBoolean((Boolean) value);
                case STRING -> g.writeString(((CharSequence) value).toString());
                case BYTES -> {
                    if (value instanceof byte[] bytes) {
                        g.writeBinary(bytes);
                    } else if (value instanceof ByteBuffer buffer) {
                        g.writeBinary(buffer.array()); // the whole backing array, as the converter does
                    } else {
                        throw new DataException("Invalid type for bytes type: " + value.getClass());
                    }
                }
                case ARRAY -> {
                    g.writeStartArray();
                    for (Object element : (Collection<?>) value) {
                        payload(g, schema.valueSchema(), element);
                    }
                    g.writeEndArray();
                }
                case MAP -> map(g, schema, (Map<?, ?>) value);
                case STRUCT -> {
                    Struct struct = (Struct) value;
                    if (struct.schema() != schema && !struct.schema().equals(schema)) {
                        throw new DataException("Mismatching schema.");
                    }
                    g.writeStartObject();
                    for (Field field : schema.fields()) {
                        g.writeFieldName(field.name());
                        payload(g, field.schema(), struct.getWithoutDefault(field.name()));
                    }
                    g.writeEndObject();
                }
            }
        } catch (ClassCastException e) {
            throw new DataException("Invalid type for " + schema.type() + ": " + value.getClass());
        }
    }

    private void map(JsonGenerator g, Schema schema, Map<?, ?> map) throws IOException {
        boolean objectMode = schema.keySchema().type() == Schema.Type.STRING && !schema.keySchema().isOptional();
        if (objectMode) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                g.writeFieldName((String) e.getKey());
                payload(g, schema.valueSchema(), e.getValue());
            }
            g.writeEndObject();
        } else {
            g.writeStartArray();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                g.writeStartArray();
                payload(g, schema.keySchema(), e.getKey());
                payload(g, schema.valueSchema(), e.getValue());
                g.writeEndArray();
            }
            g.writeEndArray();
        }
    }

    /** Kafka's own logical types, as the converter writes them (decimal as base64 of the unscaled bytes). */
    private static boolean logical(JsonGenerator g, String name, Schema schema, Object value) throws IOException {
        switch (name) {
            case Decimal.LOGICAL_NAME -> {
                if (!(value instanceof BigDecimal d)) {
                    throw new DataException("Invalid type for Decimal, expected BigDecimal but was " + value.getClass());
                }
                g.writeBinary(Decimal.fromLogical(schema, d));
            }
            case Date.LOGICAL_NAME -> g.writeNumber(Date.fromLogical(schema, asDate(name, value)));
            case Time.LOGICAL_NAME -> g.writeNumber(Time.fromLogical(schema, asDate(name, value)));
            case Timestamp.LOGICAL_NAME -> g.writeNumber(Timestamp.fromLogical(schema, asDate(name, value)));
            default -> {
                return false;
            }
        }
        return true;
    }

    private static java.util.Date asDate(String name, Object value) {
        if (!(value instanceof java.util.Date d)) {
            throw new DataException("Invalid type for " + name + ", expected Date but was " + value.getClass());
        }
        return d;
    }
}
