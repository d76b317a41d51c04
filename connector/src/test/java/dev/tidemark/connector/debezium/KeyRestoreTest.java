package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class KeyRestoreTest {
    private static final TableId T = new TableId("public", "items");
    /** A row as Debezium describes it when it found no table of that name: every column optional. */
    private static final Schema ROW = SchemaBuilder.struct().name("p.public.items.Value").optional()
            .field("id", Schema.OPTIONAL_INT32_SCHEMA).field("k", Schema.OPTIONAL_INT32_SCHEMA).field("v", Schema.OPTIONAL_STRING_SCHEMA).build();
    private static final Schema SOURCE = SchemaBuilder.struct().name("io.debezium.connector.postgresql.Source")
            .field("lsn", Schema.OPTIONAL_INT64_SCHEMA).build();
    private static final Schema ENVELOPE = SchemaBuilder.struct().name("p.public.items.Envelope")
            .field("before", ROW).field("after", ROW).field("source", SOURCE).field("op", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA).build();

    private static Struct row(Integer id, Integer k) {
        return new Struct(ROW).put("id", id).put("k", k).put("v", "v" + id);
    }

    private static SourceRecord change(String op, Struct before, Struct after) {
        Struct value = new Struct(ENVELOPE).put("before", before).put("after", after).put("op", op).put("ts_ms", 7L)
                .put("source", new Struct(SOURCE).put("lsn", 100L));
        return new SourceRecord(Map.of("server", "p"), Map.of("lsn", 100L), "p.public.items", null, null, null, ENVELOPE, value);
    }

    private static KeyRestore.Outcome restore(SourceRecord r, String... key) {
        return KeyRestore.restore(r, T, KeyRestore.keySchema(ENVELOPE, List.of(key)), "p.yaml");
    }

    private static List<SourceRecord> sent(KeyRestore.Outcome o) {
        assertThat(o).isInstanceOf(KeyRestore.Send.class);
        return ((KeyRestore.Send) o).records();
    }

    @Test
    void anUpdateIsKeyedByItsNewRowUnderTheKeySchemaNameDebeziumGives() {
        SourceRecord r = change("u", row(3, 30), row(3, -30));
        List<SourceRecord> out = sent(restore(r, "id"));
        assertThat(out).singleElement().satisfies(k -> {
            assertThat(k.keySchema().name()).isEqualTo("p.public.items.Key");
            assertThat(k.keySchema().fields()).extracting(f -> f.name()).containsExactly("id");
            assertThat(((Struct) k.key()).get("id")).isEqualTo(3);
            assertThat(k.value()).isSameAs(r.value());
            assertThat(k.topic()).isEqualTo(r.topic());
            assertThat(k.sourceOffset()).isEqualTo(r.sourceOffset());
        });
    }

    @Test
    void insertsAndSnapshotReadsAreKeyedByTheirRowAndDeletesByTheOldRow() {
        assertThat(((Struct) sent(restore(change("c", null, row(5, 50)), "id")).get(0).key()).get("id")).isEqualTo(5);
        assertThat(((Struct) sent(restore(change("r", null, row(6, 60)), "id")).get(0).key()).get("id")).isEqualTo(6);
        assertThat(((Struct) sent(restore(change("d", row(7, 70), null), "id")).get(0).key()).get("id")).isEqualTo(7);
    }

    @Test
    void aCompositeKeyKeepsTheKeyOrder() {
        Struct key = (Struct) sent(restore(change("c", null, row(3, 31)), "k", "id")).get(0).key();
        assertThat(key.schema().fields()).extracting(f -> f.name()).containsExactly("k", "id");
        assertThat(key.get("k")).isEqualTo(31);
    }

    @Test
    void anUpdateOfTheKeyBecomesADeleteOfTheOldKeyItsTombstoneAndAnInsertOfTheNewKey() {
        Struct before = row(17, 170);
        Struct after = row(10017, 170);
        List<SourceRecord> out = sent(restore(change("u", before, after), "id"));
        assertThat(out).hasSize(3);
        Struct delete = (Struct) out.get(0).value();
        assertThat(((Struct) out.get(0).key()).get("id")).isEqualTo(17);
        assertThat(delete.getString("op")).isEqualTo("d");
        assertThat(delete.getStruct("before")).isSameAs(before);
        assertThat(delete.getStruct("after")).isNull();
        assertThat(delete.getStruct("source").getInt64("lsn")).isEqualTo(100L);
        assertThat(delete.getInt64("ts_ms")).isEqualTo(7L);
        assertThat(((Struct) out.get(1).key()).get("id")).isEqualTo(17);
        assertThat(out.get(1).value()).isNull();
        Struct insert = (Struct) out.get(2).value();
        assertThat(((Struct) out.get(2).key()).get("id")).isEqualTo(10017);
        assertThat(insert.getString("op")).isEqualTo("c");
        assertThat(insert.getStruct("before")).isNull();
        assertThat(insert.getStruct("after")).isSameAs(after);
    }

    @Test
    void aRowWithoutAKeyColumnOrWithANullKeyValueStopsCaptureNamingTheTableAndItsSnapshot() {
        assertThat(KeyRestore.keySchema(ENVELOPE, List.of("nope"))).isNull();
        KeyRestore.Outcome missing = restore(change("u", row(3, 30), row(3, 31)), "nope");
        assertThat(missing).isInstanceOf(KeyRestore.Stop.class);
        assertThat(((KeyRestore.Stop) missing).line()).startsWith("capture stopped: table public.items: the change at source offset {lsn=100}")
                .endsWith("Copy the table again: `tidemark snapshot --config p.yaml --table public.items`");
        assertThat(restore(change("c", null, row(null, 30)), "id")).isInstanceOf(KeyRestore.Stop.class);
        assertThat(restore(change("d", null, null), "id")).isInstanceOf(KeyRestore.Stop.class);
    }

    @Test
    void onlyRowChangesWithoutAKeyAreRestored() {
        assertThat(KeyRestore.isKeylessRowChange(change("u", row(3, 30), row(3, 31)))).isTrue();
        assertThat(KeyRestore.isKeylessRowChange(change("t", null, null))).as("a truncate has no key").isFalse();
        SourceRecord keyed = change("u", row(3, 30), row(3, 31));
        Schema keySchema = KeyRestore.keySchema(ENVELOPE, List.of("id"));
        assertThat(KeyRestore.isKeylessRowChange(keyed.newRecord(keyed.topic(), null, keySchema, new Struct(keySchema).put("id", 3),
                keyed.valueSchema(), keyed.value(), null))).isFalse();
        assertThat(KeyRestore.isKeylessRowChange(new SourceRecord(Map.of(), Map.of(), "p.public.items", null, null, null, null))).isFalse();
    }
}
