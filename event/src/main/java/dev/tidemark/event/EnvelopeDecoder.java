package dev.tidemark.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes Debezium change-event envelopes serialised by Kafka Connect's {@code JsonConverter} with schemas enabled
 * ({@code {"schema": …, "payload": …}}) into {@link ChangeEvent}s.
 *
 * <p>Mapping per {@code op}: {@code c}, {@code u}, {@code r} → {@link ChangeEvent.Upsert} of {@code after};
 * {@code d} → {@link ChangeEvent.Delete}; {@code t} → {@link ChangeEvent.Truncate}; {@code ddl} →
 * {@link ChangeEvent.SchemaChange} (its {@code ddl} field, {@link SchemaChangeJson}); a record with a null value
 * (tombstone) → a {@link ChangeEvent.Delete} of its key. Any other {@code op} is rejected. Values are decoded
 * exactly: decimals from their unscaled bytes and scale, temporal types at their declared precision.
 *
 * <p>Thread-safe; schemas are cached per distinct schema document.
 */
public final class EnvelopeDecoder {
    private final ObjectMapper mapper = new ObjectMapper();
    private final SchemaSplitter splitter = new SchemaSplitter(mapper);
    /** Columns per schema node; nodes from the splitter are canonical instances, so identity is the right key. */
    /** Per topic: the splitter's stream names for its keys and its values. */
    private final Map<String, String[]> streams = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<JsonNode, List<Column>> fieldCache = java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    /**
     * Decodes one Kafka record.
     *
     * @throws PoisonEventException naming topic, partition, offset and key when the record cannot be decoded
     */
    public ChangeEvent decode(EventOrigin origin, byte[] key, byte[] value) {
        try {
            String[] stream = streams.computeIfAbsent(origin.topic(), t -> new String[] {t + "\u0000key", t + "\u0000value"});
            SchemaSplitter.Split keyDoc = key == null ? null : splitter.split(stream[0], key);
            if (value == null) {
                return tombstone(origin, keyDoc);
            }
            return envelope(origin, keyDoc, splitter.split(stream[1], value));
        } catch (PoisonEventException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new PoisonEventException(origin, "cannot decode change event: " + e.getMessage(), e);
        }
    }

    private ChangeEvent tombstone(EventOrigin origin, SchemaSplitter.Split keyDoc) {
        if (keyDoc == null || keyDoc.schema() == null) {
            throw new PoisonEventException(origin, "record has neither key nor value", null);
        }
        JsonNode keySchema = keyDoc.schema();
        String name = keySchema.path("name").asText("");
        // Debezium names key schemas <prefix>.<schema>.<table>.Key; Tidemark's capture with schema and table escaped
        // (NameEscape), whatever the topic
        if (!name.endsWith(".Key")) {
            throw new PoisonEventException(origin, "tombstone key schema has no table name (schema name '" + name + "')", null);
        }
        String[] parts = name.substring(0, name.length() - ".Key".length()).split("\\.");
        if (parts.length < 2) {
            throw new PoisonEventException(origin, "tombstone key schema name '" + name + "' does not name a table", null);
        }
        String tableName = NameEscape.unescape(parts[parts.length - 1]);
        TableId table = parts.length == 2 ? new TableId("", tableName) : new TableId(NameEscape.unescape(parts[parts.length - 2]), tableName);
        return new ChangeEvent.Delete(table, decodeStruct(fields(keySchema), keyDoc.payload()), new SourcePosition.Unknown(), true);
    }

    private ChangeEvent envelope(EventOrigin origin, SchemaSplitter.Split keyDoc, SchemaSplitter.Split doc) {
        JsonNode schema = doc.schema();
        JsonNode payload = doc.payload();
        if (payload == null || schema == null || !schema.isObject()) {
            throw new PoisonEventException(origin, "value is not a schema+payload envelope (is JsonConverter schemas.enable=true?)", null);
        }
        String op = payload.path("op").asText(null);
        if (op == null) {
            throw new PoisonEventException(origin, "envelope has no 'op'", null);
        }
        JsonNode source = payload.path("source");
        TableId table = new TableId(source.path("schema").asText(""), source.path("table").asText(""));
        SourcePosition position = position(source);
        List<String> keyColumns = new ArrayList<>();
        if (keyDoc != null && keyDoc.schema() != null) {
            for (Column c : fields(keyDoc.schema())) {
                keyColumns.add(c.name());
            }
        }
        switch (op) {
            case "c", "u", "r" -> {
                List<Column> columns = envelopeField(schema, "after");
                Map<String, Object> row = decodeStruct(columns, payload.path("after"));
                return new ChangeEvent.Upsert(table, keyOf(origin, table, keyColumns, row), new RowSchema(columns, keyColumns),
                        row, position, switch (op) {
                            case "c" -> ChangeEvent.Op.CREATE;
                            case "u" -> ChangeEvent.Op.UPDATE;
                            default -> ChangeEvent.Op.READ;
                        });
            }
            case "d" -> {
                List<Column> columns = envelopeField(schema, "before");
                Map<String, Object> before = decodeStruct(columns, payload.path("before"));
                Map<String, Object> key = keyDoc != null && keyDoc.schema() != null
                        ? decodeStruct(fields(keyDoc.schema()), keyDoc.payload())
                        : before;
                return new ChangeEvent.Delete(table, keyOf(origin, table, new ArrayList<>(key.keySet()), key), position, false);
            }
            case "t" -> {
                return new ChangeEvent.Truncate(table, position, "snapshot-sweep".equals(source.path("tidemark").asText("")));
            }
            case ChangeEvent.SchemaChange.OP -> {
                return SchemaChangeJson.decode(table, position, payload.path("ddl").asText(""));
            }
            default -> throw new PoisonEventException(origin, "unknown op '" + op + "' (expected c, u, r, d, t or "
                    + ChangeEvent.SchemaChange.OP + ")", null);
        }
    }

    private static Map<String, Object> keyOf(EventOrigin origin, TableId table, List<String> keyColumns, Map<String, Object> row) {
        if (keyColumns.isEmpty()) {
            throw new PoisonEventException(origin, "table " + table + " has no primary key in the record key; "
                    + "the sink applies changes by primary key", null);
        }
        Map<String, Object> key = new LinkedHashMap<>();
        for (String k : keyColumns) {
            if (!row.containsKey(k)) {
                throw new PoisonEventException(origin, "table " + table + ": key column " + k + " missing from the row", null);
            }
            key.put(k, row.get(k));
        }
        return key;
    }

    /**
     * The event's source position. Debezium's PostgreSQL envelopes carry {@code lsn} (the change's LSN),
     * {@code sequence} (a JSON text {@code ["<lastCommitLsn>","<lsn>"]}, the first element null until the connector
     * has decoded a commit) and {@code snapshot} ({@code "true"}, {@code "first"}, {@code "last"}, … for snapshot
     * rows, {@code "false"} when streaming); Debezium 3.6.1 emits, for example, {@code "snapshot":"true",
     * "sequence":"[null,\"33360368\"]","lsn":33360368} for a snapshot row. These become
     * {@link SourcePosition.Wal} positions; an envelope without {@code sequence} (Tidemark's own encoder) keeps the
     * version 1 {@link SourcePosition.Lsn}.
     */
    public static SourcePosition position(JsonNode source) {
        JsonNode lsn = source.get("lsn");
        if (lsn != null && lsn.canConvertToLong()) {
            long change = lsn.asLong();
            JsonNode sequence = source.get("sequence");
            if (sequence == null || !sequence.isTextual()) {
                return new SourcePosition.Lsn(change);
            }
            if (isSnapshot(source.path("snapshot").asText("false"))) {
                return new SourcePosition.Wal(change, SourcePosition.Phase.SNAPSHOT, 0);
            }
            Long lastCommit = lastCommit(sequence.asText());
            // no commit decoded yet: ordered after the table's newest snapshot by the sink (0 until then)
            return lastCommit == null
                    ? new SourcePosition.Wal(0, SourcePosition.Phase.FIRST, change)
                    : new SourcePosition.Wal(lastCommit, SourcePosition.Phase.STREAM, change);
        }
        JsonNode cursor = source.get("cursor");
        if (cursor != null && !cursor.isNull()) {
            return new SourcePosition.Watermark(cursor.asText());
        }
        return new SourcePosition.Unknown();
    }

    /** Rows read by an initial or blocking snapshot; incremental snapshot rows are read at a stream position. */
    private static boolean isSnapshot(String snapshot) {
        return switch (snapshot) {
            case "false", "incremental", "" -> false;
            default -> true;
        };
    }

    /** The first element of Debezium's {@code sequence} text, or null when it is null or absent. */
    private static Long lastCommit(String sequence) {
        JsonNode parsed;
        try {
            parsed = SEQUENCE_READER.readTree(sequence);
        } catch (IOException e) {
            throw new IllegalArgumentException("source.sequence is not a JSON array: " + sequence, e);
        }
        if (!parsed.isArray() || parsed.size() != 2) {
            throw new IllegalArgumentException("source.sequence is not a pair [lastCommitLsn, lsn]: " + sequence);
        }
        JsonNode first = parsed.get(0);
        if (first == null || first.isNull()) {
            return null;
        }
        if (first.isTextual()) {
            return Long.parseLong(first.asText());
        }
        if (first.canConvertToLong()) {
            return first.asLong();
        }
        throw new IllegalArgumentException("source.sequence[0] is not an LSN: " + sequence);
    }

    private static final ObjectMapper SEQUENCE_READER = new ObjectMapper();

    private List<Column> envelopeField(JsonNode envelopeSchema, String field) {
        for (JsonNode f : envelopeSchema.path("fields")) {
            if (field.equals(f.path("field").asText())) {
                return fields(f);
            }
        }
        throw new IllegalArgumentException("envelope schema has no '" + field + "' field");
    }

    private List<Column> fields(JsonNode structSchema) {
        if (fieldCache.size() > 10_000) {
            fieldCache.clear(); // schema nodes parsed outside the splitter's fast path are one-offs
        }
        return fieldCache.computeIfAbsent(structSchema, s -> {
            List<Column> out = new ArrayList<>();
            for (JsonNode f : s.path("fields")) {
                Map<String, String> params = new HashMap<>();
                Iterator<Map.Entry<String, JsonNode>> it = f.path("parameters").fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    params.put(e.getKey(), e.getValue().asText());
                }
                String logical = f.hasNonNull("name") ? f.get("name").asText() : null;
                out.add(new Column(f.path("field").asText(), new ColumnType(f.path("type").asText(), logical, params),
                        f.path("optional").asBoolean(true)));
            }
            return List.copyOf(out);
        });
    }

    private Map<String, Object> decodeStruct(List<Column> columns, JsonNode payload) {
        if (payload == null || payload.isNull() || payload.isMissingNode()) {
            throw new IllegalArgumentException("row payload is null");
        }
        Map<String, Object> row = new LinkedHashMap<>();
        for (Column c : columns) {
            JsonNode v = payload.get(c.name());
            try {
                row.put(c.name(), decodeValue(c.type(), v));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("column " + c.name() + ": " + e.getMessage(), e);
            }
        }
        return row;
    }

    /** Decodes one JSON value according to its Connect type; public for reuse by watermark and repair paths. */
    public Object decodeValue(ColumnType type, JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        String logical = type.logicalName() == null ? "" : type.logicalName();
        switch (type.connectType()) {
            case "int8", "int16", "int32", "int64" -> {
                return integral(logical, v.asLong());
            }
            case "float", "double", "float32", "float64" -> {
                if (v.isTextual()) {
                    return Double.valueOf(v.asText());
                }
                return v.asDouble();
            }
            case "boolean" -> {
                return v.asBoolean();
            }
            case "string" -> {
                String s = v.asText();
                if (ColumnType.ZONED_TIMESTAMP.equals(logical)) {
                    return IsoInstant.parse(s);
                }
                return s;
            }
            case "bytes" -> {
                byte[] bytes = Base64.getDecoder().decode(v.asText());
                if (ColumnType.DECIMAL.equals(logical)) {
                    int scale = type.scale();
                    return new BigDecimal(new BigInteger(bytes), Math.max(scale, 0));
                }
                return bytes;
            }
            case "struct" -> {
                if (ColumnType.VARIABLE_SCALE_DECIMAL.equals(logical)) {
                    byte[] bytes = Base64.getDecoder().decode(v.path("value").asText());
                    return new BigDecimal(new BigInteger(bytes), v.path("scale").asInt());
                }
                return v.toString();
            }
            default -> {
                return v.isValueNode() ? v.asText() : v.toString();
            }
        }
    }

    /** An integer value: a date, time or timestamp when its logical type says so, else the number. */
    private static Object integral(String logical, long n) {
        if (ColumnType.MICRO_DURATION.equals(logical)) {
            throw new IllegalArgumentException("an interval sent as " + ColumnType.MICRO_DURATION + " (Debezium's"
                    + " interval.handling.mode=numeric, its default) has lost its months and days; set"
                    + " interval.handling.mode=string on the Debezium connector");
        }
        return switch (logical) {
            case ColumnType.DATE, ColumnType.CONNECT_DATE -> LocalDate.ofEpochDay(n);
            case ColumnType.TIME_MILLIS -> LocalTime.ofNanoOfDay(n * 1_000_000L);
            case ColumnType.TIME_MICROS -> LocalTime.ofNanoOfDay(n * 1_000L);
            case ColumnType.TIME_NANOS -> LocalTime.ofNanoOfDay(n);
            case ColumnType.TIMESTAMP_MILLIS, ColumnType.CONNECT_TIMESTAMP ->
                    LocalDateTime.ofEpochSecond(Math.floorDiv(n, 1000L), (int) Math.floorMod(n, 1000L) * 1_000_000, ZoneOffset.UTC);
            case ColumnType.TIMESTAMP_MICROS ->
                    LocalDateTime.ofEpochSecond(Math.floorDiv(n, 1_000_000L), (int) Math.floorMod(n, 1_000_000L) * 1_000, ZoneOffset.UTC);
            case ColumnType.TIMESTAMP_NANOS ->
                    LocalDateTime.ofEpochSecond(Math.floorDiv(n, 1_000_000_000L), (int) Math.floorMod(n, 1_000_000_000L), ZoneOffset.UTC);
            default -> n;
        };
    }
}
