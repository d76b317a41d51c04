package dev.tidemark.connector.debezium;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * Chooses the Kafka partition of a change event from the <em>values</em> of its key fields only, never from the key's
 * serialised form: Kafka's default partitioner hashes the JSON key bytes, which include the key's schema, so a change
 * of a key column's type ({@code int} → {@code bigint}, {@code int} → {@code numeric}) moved a key to another partition
 * and its later events could overtake its earlier ones.
 *
 * <p>Each value is rendered canonically before hashing: integers of any width and decimals with the same numeric value
 * render alike ({@code 5}, {@code 5L}, {@code 5.00} → {@code 5}); text as itself; bytes as hex; booleans as
 * {@code true}/{@code false}; Debezium's variable-scale decimal struct as its decimal value. The rendering of all key
 * values, each prefixed by its length, is hashed with murmur2 (as Kafka's own partitioner does) modulo the partition
 * count. A record without a key (a truncate) goes to partition 0.
 *
 * <p>Pure and thread-safe.
 */
public final class KeyValuePartitioner {
    private static final String VARIABLE_SCALE_DECIMAL = "io.debezium.data.VariableScaleDecimal";

    private KeyValuePartitioner() {
    }

    /** The partition (of {@code partitions}) for a record whose Connect key is {@code key} (a {@link Struct} or null). */
    public static int partition(Object key, int partitions) {
        if (partitions <= 0) {
            throw new IllegalArgumentException("a topic has at least one partition, not " + partitions);
        }
        if (key == null) {
            return 0;
        }
        return partitionOfValues(values(key), partitions);
    }

    /** The partition for key values given in key-column order. */
    public static int partitionOfValues(List<?> keyValues, int partitions) {
        return Utils.toPositive(Utils.murmur2(canonicalBytes(keyValues))) % partitions;
    }

    static List<Object> values(Object key) {
        List<Object> out = new ArrayList<>();
        if (key instanceof Struct s) {
            for (Field f : s.schema().fields()) {
                out.add(s.get(f));
            }
        } else {
            out.add(key);
        }
        return out;
    }

    static byte[] canonicalBytes(List<?> keyValues) {
        StringBuilder b = new StringBuilder();
        for (Object v : keyValues) {
            String text = canonical(v);
            if (text == null) {
                b.append("-1:");
            } else {
                b.append(text.length()).append(':').append(text);
            }
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** One value's canonical text; null for SQL NULL. */
    static String canonical(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long || v instanceof BigInteger) {
            return v.toString();
        }
        if (v instanceof BigDecimal d) {
            return decimal(d);
        }
        if (v instanceof Float || v instanceof Double) {
            double d = ((Number) v).doubleValue();
            return Double.isFinite(d) ? decimal(new BigDecimal(Double.toString(d))) : Double.toString(d);
        }
        if (v instanceof byte[] bytes) {
            return "\\x" + HexFormat.of().formatHex(bytes);
        }
        if (v instanceof ByteBuffer buffer) {
            return "\\x" + HexFormat.of().formatHex(toArray(buffer));
        }
        if (v instanceof Struct s && VARIABLE_SCALE_DECIMAL.equals(s.schema().name())) {
            Object raw = s.get("value");
            byte[] bytes = raw instanceof ByteBuffer bb ? toArray(bb) : (byte[]) raw;
            return decimal(new BigDecimal(new BigInteger(bytes), s.getInt32("scale")));
        }
        if (v instanceof java.util.Date d) {
            return d.toInstant().toString();
        }
        return v.toString();
    }

    private static String decimal(BigDecimal d) {
        return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }

    private static byte[] toArray(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return bytes;
    }
}
