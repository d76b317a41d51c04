package dev.tidemark.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Map;

/**
 * Writes {@link ChangeEvent}s as Debezium change-event envelopes in Kafka Connect's JsonConverter shape (schemas
 * enabled), the same contract capture produces, so every producer of events (watermark polling, reconcile repairs,
 * tests) feeds the one sink. {@link EnvelopeDecoder#decode} of the output gives back an equal event.
 *
 * <p>{@code source.connector} names the producer ({@code watermark}, {@code reconcile}); the position goes to
 * {@code source.lsn} (log positions) or {@code source.cursor} (watermark cursor values). Thread-safe.
 */
public final class EnvelopeEncoder {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private final ObjectMapper mapper = new ObjectMapper();
    private final String topicPrefix;
    private final String connector;
    private final String database;

    /**
     * @param topicPrefix schema names are {@code <prefix>.<schema>.<table>.Key/Value/Envelope}, as Debezium names them
     * @param connector   producer name written to {@code source.connector}
     * @param database    source database name written to {@code source.db}
     */
    public EnvelopeEncoder(String topicPrefix, String connector, String database) {
        this.topicPrefix = topicPrefix;
        this.connector = connector;
        this.database = database;
    }

    /** The record key: the key columns of the event, with their schema. */
    public byte[] key(ChangeEvent event, RowSchema schema) {
        ObjectNode keySchema = F.objectNode();
        keySchema.put("type", "struct");
        ArrayNode fields = keySchema.putArray("fields");
        ObjectNode payload = F.objectNode();
        for (String k : schema.keyColumns()) {
            Column c = schema.column(k).orElseThrow();
            fields.add(fieldSchema(c, false));
            payload.set(k, encodeValue(c.type(), event.key().get(k)));
        }
        keySchema.put("optional", false);
        keySchema.put("name", schemaName(event.table(), "Key"));
        return write(envelope(keySchema, payload));
    }

    /** The record value; {@code null} for nothing (use {@link #tombstone()} for a tombstone). */
    public byte[] value(ChangeEvent event, RowSchema schema, long tsMs) {
        ObjectNode valueSchema = F.objectNode();
        valueSchema.put("type", "struct");
        ArrayNode fields = valueSchema.putArray("fields");
        // a delete's before image may hold its key only: its other columns are optional there, or a Connect consumer
        // (JsonConverter with schemas) refuses a NOT NULL column's missing value
        fields.add(rowSchema(event.table(), schema, "before", event instanceof ChangeEvent.Delete));
        fields.add(rowSchema(event.table(), schema, "after", false));
        fields.add(sourceSchema());
        fields.add(simple("string", false, "op"));
        fields.add(simple("int64", true, "ts_ms"));
        valueSchema.put("optional", false);
        valueSchema.put("name", schemaName(event.table(), "Envelope"));

        ObjectNode payload = F.objectNode();
        String op;
        if (event instanceof ChangeEvent.Upsert u) {
            payload.putNull("before");
            payload.set("after", row(schema, u.row()));
            op = switch (u.op()) {
                case CREATE -> "c";
                case UPDATE -> "u";
                case READ -> "r";
            };
        } else if (event instanceof ChangeEvent.Delete d) {
            payload.set("before", row(schema, d.key()));
            payload.putNull("after");
            op = "d";
        } else {
            payload.putNull("before");
            payload.putNull("after");
            op = "t";
        }
        payload.set("source", source(event, tsMs));
        payload.put("op", op);
        payload.put("ts_ms", tsMs);
        return write(envelope(valueSchema, payload));
    }

    /**
     * The record value of a schema change (no key): {@code op} {@value ChangeEvent.SchemaChange#OP}, the source with
     * table and position, and the change as JSON text in {@code ddl} ({@link SchemaChangeJson}).
     */
    public byte[] schemaChange(ChangeEvent.SchemaChange change, long tsMs) {
        ObjectNode valueSchema = F.objectNode();
        valueSchema.put("type", "struct");
        ArrayNode fields = valueSchema.putArray("fields");
        fields.add(sourceSchema());
        fields.add(simple("string", false, "op"));
        fields.add(simple("int64", true, "ts_ms"));
        fields.add(simple("string", false, "ddl"));
        valueSchema.put("optional", false);
        valueSchema.put("name", schemaName(change.table(), "SchemaChange"));
        ObjectNode payload = F.objectNode();
        payload.set("source", source(change, tsMs));
        payload.put("op", ChangeEvent.SchemaChange.OP);
        payload.put("ts_ms", tsMs);
        payload.put("ddl", SchemaChangeJson.encode(change));
        return write(envelope(valueSchema, payload));
    }

    /** A tombstone's value: null. */
    public static byte[] tombstone() {
        return null;
    }

    private ObjectNode row(RowSchema schema, Map<String, Object> values) {
        ObjectNode row = F.objectNode();
        for (Column c : schema.columns()) {
            row.set(c.name(), encodeValue(c.type(), values.get(c.name())));
        }
        return row;
    }

    /** A row's struct schema; with {@code keyOnly} every column but the key's is optional. */
    private ObjectNode rowSchema(TableId table, RowSchema schema, String field, boolean keyOnly) {
        ObjectNode s = F.objectNode();
        s.put("type", "struct");
        ArrayNode fields = s.putArray("fields");
        for (Column c : schema.columns()) {
            boolean key = schema.keyColumns().contains(c.name());
            fields.add(fieldSchema(c, !key && (c.optional() || keyOnly)));
        }
        s.put("optional", true);
        s.put("name", schemaName(table, "Value"));
        s.put("field", field);
        return s;
    }

    private static ObjectNode fieldSchema(Column c, boolean optional) {
        ObjectNode f = F.objectNode();
        f.put("type", c.type().connectType());
        f.put("optional", optional);
        if (c.type().logicalName() != null) {
            f.put("name", c.type().logicalName());
            f.put("version", 1);
        }
        if (!c.type().parameters().isEmpty()) {
            ObjectNode p = f.putObject("parameters");
            c.type().parameters().forEach(p::put);
        }
        f.put("field", c.name());
        return f;
    }

    private static ObjectNode simple(String type, boolean optional, String field) {
        ObjectNode f = F.objectNode();
        f.put("type", type);
        f.put("optional", optional);
        f.put("field", field);
        return f;
    }

    private static ObjectNode sourceSchema() {
        ObjectNode s = F.objectNode();
        s.put("type", "struct");
        ArrayNode fields = s.putArray("fields");
        fields.add(simple("string", false, "version"));
        fields.add(simple("string", false, "connector"));
        fields.add(simple("string", false, "name"));
        fields.add(simple("int64", false, "ts_ms"));
        fields.add(simple("string", false, "db"));
        fields.add(simple("string", true, "schema"));
        fields.add(simple("string", false, "table"));
        fields.add(simple("int64", true, "lsn"));
        fields.add(simple("string", true, "cursor"));
        fields.add(simple("string", true, "snapshot"));
        fields.add(simple("string", true, "sequence"));
        s.put("optional", false);
        s.put("name", "dev.tidemark.Source");
        s.put("field", "source");
        return s;
    }

    private ObjectNode source(ChangeEvent event, long tsMs) {
        ObjectNode s = F.objectNode();
        s.put("version", "tidemark");
        s.put("connector", connector);
        s.put("name", topicPrefix);
        s.put("ts_ms", tsMs);
        s.put("db", database);
        s.put("schema", event.table().schema());
        s.put("table", event.table().table());
        SourcePosition p = event.position();
        if (p instanceof SourcePosition.Lsn l) {
            s.put("lsn", l.lsn());
            s.putNull("cursor");
        } else if (p instanceof SourcePosition.Wal w) {
            // Debezium's fields, so that the decoder reads the same position back
            boolean snapshot = w.phase() == SourcePosition.Phase.SNAPSHOT;
            long lsn = snapshot ? w.order() : w.change();
            s.put("lsn", lsn);
            s.put("snapshot", snapshot ? "true" : "false");
            s.put("sequence", "[" + (w.phase() == SourcePosition.Phase.STREAM ? "\"" + w.order() + "\"" : "null")
                    + ",\"" + lsn + "\"]");
            s.putNull("cursor");
        } else if (p instanceof SourcePosition.Watermark c) {
            s.putNull("lsn");
            s.put("cursor", c.value());
        } else {
            s.putNull("lsn");
            s.putNull("cursor");
        }
        return s;
    }

    private String schemaName(TableId t, String suffix) {
        return topicPrefix + "." + (t.schema().isEmpty() ? "" : t.schema() + ".") + t.table() + "." + suffix;
    }

    private static ObjectNode envelope(JsonNode schema, JsonNode payload) {
        ObjectNode e = F.objectNode();
        e.set("schema", schema);
        e.set("payload", payload);
        return e;
    }

    private byte[] write(JsonNode node) {
        try {
            return mapper.writeValueAsBytes(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise envelope", e);
        }
    }

    /** Encodes one decoded value (see {@link ChangeEvent} for the Java types) as its Connect JSON form. */
    public static JsonNode encodeValue(ColumnType type, Object v) {
        if (v == null) {
            return F.nullNode();
        }
        String logical = type.logicalName() == null ? "" : type.logicalName();
        switch (logical) {
            case ColumnType.DECIMAL -> {
                BigDecimal d = (BigDecimal) v;
                int scale = type.scale() >= 0 ? type.scale() : d.scale();
                return F.textNode(Base64.getEncoder().encodeToString(d.setScale(scale, RoundingMode.UNNECESSARY).unscaledValue().toByteArray()));
            }
            case ColumnType.VARIABLE_SCALE_DECIMAL -> {
                BigDecimal d = (BigDecimal) v;
                ObjectNode o = F.objectNode();
                o.put("scale", d.scale());
                o.put("value", Base64.getEncoder().encodeToString(d.unscaledValue().toByteArray()));
                return o;
            }
            case ColumnType.DATE, ColumnType.CONNECT_DATE -> {
                return F.numberNode(((LocalDate) v).toEpochDay());
            }
            case ColumnType.TIME_MILLIS -> {
                return F.numberNode(((LocalTime) v).toNanoOfDay() / 1_000_000L);
            }
            case ColumnType.TIME_MICROS -> {
                return F.numberNode(((LocalTime) v).toNanoOfDay() / 1_000L);
            }
            case ColumnType.TIME_NANOS -> {
                return F.numberNode(((LocalTime) v).toNanoOfDay());
            }
            case ColumnType.TIMESTAMP_MILLIS, ColumnType.CONNECT_TIMESTAMP -> {
                return F.numberNode(((LocalDateTime) v).toInstant(ZoneOffset.UTC).toEpochMilli());
            }
            case ColumnType.TIMESTAMP_MICROS -> {
                Instant i = ((LocalDateTime) v).toInstant(ZoneOffset.UTC);
                return F.numberNode(Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1_000L));
            }
            case ColumnType.TIMESTAMP_NANOS -> {
                Instant i = ((LocalDateTime) v).toInstant(ZoneOffset.UTC);
                return F.numberNode(Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano()));
            }
            case ColumnType.ZONED_TIMESTAMP -> {
                return F.textNode(((Instant) v).toString());
            }
            default -> {
                // plain physical type below
            }
        }
        return switch (type.connectType()) {
            case "int8", "int16", "int32", "int64" -> F.numberNode(((Number) v).longValue());
            case "float", "double", "float32", "float64" -> F.numberNode(((Number) v).doubleValue());
            case "boolean" -> F.booleanNode((Boolean) v);
            case "bytes" -> F.textNode(Base64.getEncoder().encodeToString((byte[]) v));
            default -> F.textNode(v.toString());
        };
    }
}
