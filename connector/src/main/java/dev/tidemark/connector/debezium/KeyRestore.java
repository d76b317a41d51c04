package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Puts the primary key back on a row change Debezium sent without one although its table has a primary key.
 * Debezium reads a table's key from the catalog <em>by name, as the catalog is when it decodes</em> the table's
 * description (pgoutput's relation message): a change decoded after its table was renamed (or dropped) finds no table
 * of that name and comes without a key. Capture needs {@code REPLICA IDENTITY FULL}, so every change's row image holds
 * every column and the key is taken from it: the new image ({@code after}) of an insert, update or snapshot read, the
 * old one ({@code before}) of a delete. An update whose old and new images hold different key values becomes what
 * Debezium sends for it when it knows the key: a delete of the old key, its tombstone, and an insert of the new key.
 * Pure.
 */
final class KeyRestore {
    private KeyRestore() {
    }

    /** What to send in place of one record. */
    sealed interface Outcome {
    }

    /** Send these records (with keys), in this order. */
    record Send(List<SourceRecord> records) implements Outcome {
        Send {
            records = List.copyOf(records);
        }
    }

    /** The key cannot be taken from the record: stop capture with this line, sending nothing of it. */
    record Stop(String line) implements Outcome {
    }

    /** Whether {@code r} is a row change (insert, update, delete, snapshot read) that came without a key. */
    static boolean isKeylessRowChange(SourceRecord r) {
        return r.key() == null && op(r) != null;
    }

    /**
     * The key schema of {@code envelope}'s rows by {@code keyColumns} (the table's primary key, in key order, not
     * empty), or null when the row lacks a key column. Named as Debezium names key schemas ({@code <prefix>.Key} for
     * the envelope's {@code <prefix>.Envelope}); its fields have the row's field schemas.
     */
    static Schema keySchema(Schema envelope, List<String> keyColumns) {
        Field after = envelope.field("after");
        if (after == null || keyColumns.isEmpty()) {
            return null;
        }
        SchemaBuilder schema = SchemaBuilder.struct().name(keySchemaName(envelope));
        for (String c : keyColumns) {
            Field f = after.schema().field(c);
            if (f == null) {
                return null;
            }
            schema.field(c, f.schema());
        }
        return schema.build();
    }

    /**
     * The records to send for {@code r}, a keyless row change of {@code table}, keyed by {@code keySchema}
     * ({@link #keySchema} of its envelope, or null when the row lacks a key column); {@code configLabel} is the
     * pipeline file for the stop line.
     */
    static Outcome restore(SourceRecord r, TableId table, Schema keySchema, String configLabel) {
        Struct value = (Struct) r.value();
        String op = op(r);
        Struct key = keySchema == null ? null : key(keySchema, value.getStruct("d".equals(op) ? "before" : "after"));
        if (key == null) {
            return new Stop("capture stopped: table " + table + ": the change at source offset " + r.sourceOffset() + " came from "
                    + "Debezium without its primary key (the table's name was no longer in the source's catalog when it was "
                    + "decoded) and its row does not hold every key column; nothing from that change on was sent. Copy the table "
                    + "again: `tidemark snapshot --config " + (configLabel == null ? "<path>" : configLabel) + " --table " + table + "`");
        }
        Struct before = "u".equals(op) ? value.getStruct("before") : null;
        Struct oldKey = before == null ? null : key(keySchema, before);
        if (oldKey == null || Objects.equals(oldKey, key)) {
            return new Send(List.of(withKey(r, key, r.valueSchema(), value)));
        }
        return new Send(List.of(withKey(r, oldKey, r.valueSchema(), envelope(value, before, null, "d")),
                withKey(r, oldKey, null, null),
                withKey(r, key, r.valueSchema(), envelope(value, null, value.getStruct("after"), "c"))));
    }

    /** The key of row {@code image} by {@code keySchema}, or null when there is no row or a key column is null. */
    static Struct key(Schema keySchema, Struct image) {
        if (image == null) {
            return null;
        }
        Struct key = new Struct(keySchema);
        for (Field f : keySchema.fields()) {
            Object v = image.get(f.name());
            if (v == null) {
                return null;
            }
            key.put(f, v);
        }
        return key;
    }

    /** {@code <prefix>.Key} for an envelope schema named {@code <prefix>.Envelope}. */
    static String keySchemaName(Schema envelope) {
        String name = envelope.name() == null ? "" : envelope.name();
        return (name.endsWith(".Envelope") ? name.substring(0, name.length() - ".Envelope".length()) : name) + ".Key";
    }

    /** {@code value} with {@code before}, {@code after} and {@code op} replaced, every other field (source, times) kept. */
    private static Struct envelope(Struct value, Struct before, Struct after, String op) {
        Struct out = new Struct(value.schema());
        for (Field f : value.schema().fields()) {
            Object v = switch (f.name()) {
                case "before" -> before;
                case "after" -> after;
                case "op" -> op;
                default -> value.get(f);
            };
            if (v != null) {
                out.put(f, v);
            }
        }
        return out;
    }

    private static SourceRecord withKey(SourceRecord r, Struct key, Schema valueSchema, Struct value) {
        return r.newRecord(r.topic(), r.kafkaPartition(), key.schema(), key, valueSchema, value, r.timestamp(), r.headers());
    }

    /** The envelope's {@code op} when it is a row change ({@code c}, {@code u}, {@code d}, {@code r}), else null. */
    private static String op(SourceRecord r) {
        if (!(r.value() instanceof Struct v) || v.schema().field("op") == null || v.schema().field("after") == null) {
            return null;
        }
        String op = v.getString("op");
        return op != null && List.of("c", "u", "d", "r").contains(op) ? op : null;
    }
}
