package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/** {@link ConnectJsonWriter} must write exactly the bytes capture's JsonConverter wrote before it. */
class ConnectJsonWriterTest {
    private static final Schema ROW = SchemaBuilder.struct().name("srv.public.t.Value").optional()
            .field("id", Schema.INT64_SCHEMA)
            .field("small", Schema.OPTIONAL_INT16_SCHEMA)
            .field("tiny", Schema.OPTIONAL_INT8_SCHEMA)
            .field("n", Schema.OPTIONAL_INT32_SCHEMA)
            .field("amount", Decimal.builder(2).parameter("connect.decimal.precision", "12").optional().build())
            .field("ratio", Schema.OPTIONAL_FLOAT32_SCHEMA)
            .field("score", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .field("active", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .field("note", SchemaBuilder.string().optional().parameter("__debezium.source.column.type", "VARCHAR")
                    .parameter("__debezium.source.column.length", "100").build())
            .field("defaulted", SchemaBuilder.string().optional().defaultValue("dflt").build())
            .field("blob", Schema.OPTIONAL_BYTES_SCHEMA)
            .field("day", Date.builder().optional().build())
            .field("at", Time.builder().optional().build())
            .field("ts", Timestamp.builder().optional().build())
            .field("micros", SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").version(1).optional().build())
            .field("tags", SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).optional().build())
            .field("attrs", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT32_SCHEMA).optional().build())
            .field("pairs", SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.STRING_SCHEMA).optional().build())
            .build();
    private static final Schema SOURCE = SchemaBuilder.struct().name("io.debezium.connector.postgresql.Source")
            .field("lsn", Schema.OPTIONAL_INT64_SCHEMA).field("db", Schema.STRING_SCHEMA).build();
    private static final Schema ENVELOPE = SchemaBuilder.struct().name("srv.public.t.Envelope").version(2)
            .doc("a change").field("before", ROW).field("after", ROW).field("source", SOURCE)
            .field("op", Schema.STRING_SCHEMA).field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA).build();

    @Test
    void writesTheConvertersBytesForEveryTypeAndNull() {
        ConnectJsonWriter writer = new ConnectJsonWriter();
        Struct full = row(new Random(1), true);
        Struct nulls = new Struct(ROW).put("id", 2L);
        for (Struct before : new Struct[] {null, nulls, full}) {
            Struct env = new Struct(ENVELOPE).put("before", before).put("after", full)
                    .put("source", new Struct(SOURCE).put("lsn", 123456789L).put("db", "pg")).put("op", "u").put("ts_ms", 1700000000000L);
            assertSameBytes(writer, ENVELOPE, env);
        }
        assertSameBytes(writer, ROW, nulls);
    }

    @Test
    void writesTheConvertersBytesForRandomRowsAndReusesTheSchema() {
        ConnectJsonWriter writer = new ConnectJsonWriter();
        Random random = new Random(42);
        for (int i = 0; i < 2_000; i++) {
            Struct env = new Struct(ENVELOPE).put("before", random.nextBoolean() ? null : row(random, random.nextBoolean()))
                    .put("after", row(random, random.nextBoolean())).put("source", new Struct(SOURCE).put("db", "d" + i)).put("op", "c");
            assertSameBytes(writer, ENVELOPE, env);
        }
    }

    @Test
    void keysPrimitivesAndTombstones() {
        ConnectJsonWriter writer = new ConnectJsonWriter();
        Schema key = SchemaBuilder.struct().name("srv.public.t.Key").field("id", Schema.INT64_SCHEMA).build();
        JsonConverter keys = converter(true);
        Struct k = new Struct(key).put("id", 7L);
        assertThat(new String(writer.write(key, k), StandardCharsets.UTF_8))
                .isEqualTo(new String(keys.fromConnectData("t", key, k), StandardCharsets.UTF_8));
        assertSameBytes(writer, Schema.OPTIONAL_STRING_SCHEMA, null);
        assertSameBytes(writer, Schema.STRING_SCHEMA, "plain");
        assertThat(writer.write(null, null)).isNull();
        assertThat(converter(false).fromConnectData("t", null, null)).isNull();
    }

    @Test
    void refusesWhatTheConverterRefuses() {
        ConnectJsonWriter writer = new ConnectJsonWriter();
        assertThatThrownBy(() -> writer.write(Schema.INT64_SCHEMA, null)).isInstanceOf(DataException.class);
        assertThatThrownBy(() -> converter(false).fromConnectData("t", Schema.INT64_SCHEMA, null)).isInstanceOf(DataException.class);
        assertThatThrownBy(() -> writer.write(Schema.INT64_SCHEMA, "text")).isInstanceOf(DataException.class);
    }

    @Test
    void aStructWhoseSchemaIsEqualButAnotherObjectIsWrittenAndAMismatchIsAlwaysRefused() {
        ConnectJsonWriter writer = new ConnectJsonWriter();
        Schema a = SchemaBuilder.struct().name("r").field("id", Schema.INT64_SCHEMA)
                .field("d", SchemaBuilder.string().optional().defaultValue("dflt").build()).build();
        Schema sameAsA = SchemaBuilder.struct().name("r").field("id", Schema.INT64_SCHEMA)
                .field("d", SchemaBuilder.string().optional().defaultValue("dflt").build()).build();
        Schema other = SchemaBuilder.struct().name("r").field("id", Schema.INT64_SCHEMA).field("x", Schema.OPTIONAL_INT32_SCHEMA).build();
        Schema env = SchemaBuilder.struct().name("e").field("after", a).build();
        for (int i = 0; i < 3; i++) {
            Struct stored = new Struct(sameAsA).put("id", (long) i).put("d", i == 1 ? "given" : null);
            assertSameBytes(writer, env, new Struct(env).put("after", stored));
        }
        for (int i = 0; i < 2; i++) {
            Struct wrong = new Struct(other).put("id", 1L);
            assertThatThrownBy(() -> writer.write(a, wrong)).isInstanceOf(DataException.class).hasMessage("Mismatching schema.");
        }
    }

    private static Struct row(Random r, boolean fill) {
        Struct s = new Struct(ROW).put("id", r.nextLong());
        if (!fill) {
            return s;
        }
        Map<String, Integer> attrs = new LinkedHashMap<>();
        attrs.put("a\"b", r.nextInt());
        attrs.put("ü", null);
        Map<Integer, String> pairs = new LinkedHashMap<>();
        pairs.put(r.nextInt(), "x\ty");
        List<String> tags = new ArrayList<>();
        tags.add("tag " + r.nextInt(100));
        tags.add(null);
        float[] floats = {r.nextFloat() * 1e6f, Float.NaN, Float.POSITIVE_INFINITY, 1e-9f, -0.0f};
        double[] doubles = {r.nextGaussian() * 1e12, Double.NaN, Double.NEGATIVE_INFINITY, 1e300, 0.1};
        return s.put("small", (short) r.nextInt(Short.MAX_VALUE)).put("tiny", (byte) r.nextInt(127)).put("n", r.nextInt())
                .put("amount", BigDecimal.valueOf(r.nextLong() % 10_000_000_000L, 2))
                .put("ratio", floats[r.nextInt(floats.length)]).put("score", doubles[r.nextInt(doubles.length)])
                .put("active", r.nextBoolean())
                .put("note", text(r)).put("defaulted", r.nextBoolean() ? null : "set")
                .put("blob", r.nextBoolean() ? bytes(r) : ByteBuffer.wrap(bytes(r)))
                .put("day", new java.util.Date(Math.floorDiv(r.nextLong() % 4_000_000_000_000L, 86_400_000L) * 86_400_000L))
                .put("at", new java.util.Date(r.nextInt(86_400_000)))
                .put("ts", new java.util.Date(r.nextLong() % 4_000_000_000_000L))
                .put("micros", r.nextLong()).put("tags", tags).put("attrs", attrs).put("pairs", pairs);
    }

    private static String text(Random r) {
        String[] parts = {"quote \" ", "backslash \\ ", "tab\t", "nl\n", "ctl\u0001", "é", "日本", "😀", "</script>", "plain"};
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 1 + r.nextInt(6); i++) {
            b.append(parts[r.nextInt(parts.length)]);
        }
        return b.toString();
    }

    private static byte[] bytes(Random r) {
        byte[] b = new byte[r.nextInt(40)];
        r.nextBytes(b);
        return b;
    }

    private static void assertSameBytes(ConnectJsonWriter writer, Schema schema, Object value) {
        byte[] expected = converter(false).fromConnectData("t", schema, value);
        assertThat(new String(writer.write(schema, value), StandardCharsets.UTF_8)).isEqualTo(new String(expected, StandardCharsets.UTF_8));
    }

    /** Exactly the converter capture configured before ConnectJsonWriter. */
    private static JsonConverter converter(boolean isKey) {
        JsonConverter c = new JsonConverter();
        c.configure(Map.of("schemas.enable", "true", "replace.null.with.default", "false", "schemas.cache.size", "10000"), isKey);
        return c;
    }
}
