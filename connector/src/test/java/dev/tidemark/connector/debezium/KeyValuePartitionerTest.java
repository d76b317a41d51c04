package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class KeyValuePartitionerTest {
    private static final Random RANDOM = new Random(20261130);

    private static Struct key(String name, Schema idType, Object id, String region) {
        Schema schema = SchemaBuilder.struct().name(name).field("id", idType).field("region", Schema.STRING_SCHEMA).build();
        return new Struct(schema).put("id", id).put("region", region);
    }

    @Test
    void aKeyStaysOnItsPartitionWhenItsColumnTypeWidens() {
        for (int i = 0; i < 2_000; i++) {
            int id = RANDOM.nextInt();
            String region = "r" + RANDOM.nextInt(50);
            int partitions = 1 + RANDOM.nextInt(12);
            int asInt = KeyValuePartitioner.partition(key("db.public.t.Key", Schema.INT32_SCHEMA, id, region), partitions);
            int asLong = KeyValuePartitioner.partition(key("db.public.t.Key", Schema.INT64_SCHEMA, (long) id, region), partitions);
            Schema decimal = Decimal.schema(2);
            int asDecimal = KeyValuePartitioner.partition(
                    key("db.public.t.Key", decimal, BigDecimal.valueOf(id).setScale(2), region), partitions);
            assertThat(asLong).as("int %d → bigint", id).isEqualTo(asInt);
            assertThat(asDecimal).as("int %d → numeric(…,2)", id).isEqualTo(asInt);
            assertThat(asInt).isBetween(0, partitions - 1);
        }
    }

    @Test
    void onlyValuesDecideNotSchemaNamesOrFieldNames() {
        Schema a = SchemaBuilder.struct().name("a.Key").field("id", Schema.INT32_SCHEMA).build();
        Schema b = SchemaBuilder.struct().name("b.Key").optional().field("renamed", Schema.INT16_SCHEMA).build();
        for (short id = -300; id < 300; id++) {
            assertThat(KeyValuePartitioner.partition(new Struct(b).put("renamed", id), 7))
                    .isEqualTo(KeyValuePartitioner.partition(new Struct(a).put("id", (int) id), 7));
        }
    }

    @Test
    void keysSpreadOverEveryPartitionAndTheChoiceIsRepeatable() {
        Set<Integer> used = new HashSet<>();
        for (int id = 0; id < 1_000; id++) {
            Struct k = key("t.Key", Schema.INT32_SCHEMA, id, "eu");
            int p = KeyValuePartitioner.partition(k, 5);
            assertThat(KeyValuePartitioner.partition(k, 5)).isEqualTo(p);
            used.add(p);
        }
        assertThat(used).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
    }

    @Test
    void valuesAreRenderedCanonically() {
        assertThat(KeyValuePartitioner.canonical(new BigDecimal("5.000"))).isEqualTo("5");
        assertThat(KeyValuePartitioner.canonical(new BigDecimal("0.00"))).isEqualTo("0");
        assertThat(KeyValuePartitioner.canonical(new BigDecimal("1E+3"))).isEqualTo("1000");
        assertThat(KeyValuePartitioner.canonical(2.50d)).isEqualTo("2.5");
        assertThat(KeyValuePartitioner.canonical(ByteBuffer.wrap(new byte[] {1, (byte) 0xab})))
                .isEqualTo(KeyValuePartitioner.canonical(new byte[] {1, (byte) 0xab})).isEqualTo("\\x01ab");
        assertThat(KeyValuePartitioner.canonical(null)).isNull();
        // NULL and the text "-1:" stay distinct, and field boundaries cannot shift between values
        assertThat(KeyValuePartitioner.canonicalBytes(java.util.Arrays.asList("ab", "c")))
                .isNotEqualTo(KeyValuePartitioner.canonicalBytes(List.of("a", "bc")));
    }

    @Test
    void aRecordWithoutAKeyGoesToTheFirstPartition() {
        assertThat(KeyValuePartitioner.partition(null, 3)).isZero();
    }
}
