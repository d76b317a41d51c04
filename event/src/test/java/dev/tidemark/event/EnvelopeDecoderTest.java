package dev.tidemark.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class EnvelopeDecoderTest {
    private final EnvelopeDecoder decoder = new EnvelopeDecoder();
    private final EventOrigin origin = new EventOrigin("tm.public.orders", 2, 41, Envelopes.key(7));

    private static String decimal(String unscaled) {
        return Base64.getEncoder().encodeToString(new BigInteger(unscaled).toByteArray());
    }

    @Test
    void insertDecodesExactValues() {
        String after = Envelopes.row(7, "Zoë \"Z\" 株式", decimal("-123456789012"), "2026-03-01T10:15:30.123456Z", 1_700_000_000_123_456L, true);
        ChangeEvent e = decoder.decode(origin, Envelopes.key(7), Envelopes.value("c", "null", after, 99));

        assertThat(e).isInstanceOf(ChangeEvent.Upsert.class);
        ChangeEvent.Upsert u = (ChangeEvent.Upsert) e;
        assertThat(u.table()).isEqualTo(new TableId("public", "orders"));
        assertThat(u.key()).containsEntry("id", 7L);
        assertThat(u.op()).isEqualTo(ChangeEvent.Op.CREATE);
        assertThat(u.row().get("customer")).isEqualTo("Zoë \"Z\" 株式");
        assertThat(u.row().get("amount")).isEqualTo(new BigDecimal("-1234567890.12"));
        assertThat(u.row().get("placed_at")).isEqualTo(Instant.parse("2026-03-01T10:15:30.123456Z"));
        assertThat(u.row().get("local_at")).isEqualTo(LocalDateTime.parse("2023-11-14T22:13:20.123456"));
        assertThat(u.row().get("flag")).isEqualTo(true);
        assertThat(u.position()).isEqualTo(new SourcePosition.Lsn(99));
        assertThat(u.schema().keyColumns()).containsExactly("id");
        assertThat(u.schema().column("amount").orElseThrow().type().scale()).isEqualTo(2);
        assertThat(u.schema().column("amount").orElseThrow().type().precision()).isEqualTo(12);
    }

    @Test
    void nullsStayNull() {
        String after = Envelopes.row(7, null, null, null, null, null);
        ChangeEvent.Upsert u = (ChangeEvent.Upsert) decoder.decode(origin, Envelopes.key(7), Envelopes.value("u", "null", after, 5));
        assertThat(u.row()).containsEntry("customer", null).containsEntry("amount", null).containsEntry("placed_at", null);
        assertThat(u.op()).isEqualTo(ChangeEvent.Op.UPDATE);
    }

    @Test
    void deleteAndTombstoneCarryTheKey() {
        String before = Envelopes.row(7, "x", null, null, null, null);
        ChangeEvent d = decoder.decode(origin, Envelopes.key(7), Envelopes.value("d", before, "null", 6));
        assertThat(d).isEqualTo(new ChangeEvent.Delete(new TableId("public", "orders"), java.util.Map.of("id", 7L), new SourcePosition.Lsn(6), false));

        ChangeEvent t = decoder.decode(origin, Envelopes.key(7), null);
        assertThat(t).isInstanceOf(ChangeEvent.Delete.class);
        assertThat(((ChangeEvent.Delete) t).tombstone()).isTrue();
        assertThat(t.table()).isEqualTo(new TableId("public", "orders"));
        assertThat(t.key()).containsEntry("id", 7L);
    }

    @Test
    void aTombstonesTableIsTheEscapedOneItsKeySchemaNames() {
        byte[] key = ("{\"schema\":{\"type\":\"struct\",\"name\":\"shop.sales-2Ex.Order-20Items-C3-A4.Key\",\"optional\":false,"
                + "\"fields\":[{\"field\":\"id\",\"type\":\"int64\",\"optional\":false}]},\"payload\":{\"id\":7}}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ChangeEvent t = decoder.decode(origin, key, null);
        assertThat(t.table()).isEqualTo(new TableId("sales.x", "Order Itemsä"));
        assertThat(NameEscape.unescape("my-table")).as("a name never escaped stays").isEqualTo("my-table");
        assertThat(NameEscape.unescape(NameEscape.escape("a.b-c dä"))).isEqualTo("a.b-c dä");
    }

    @Test
    void unknownOpIsRejectedNamingTheRecord() {
        String after = Envelopes.row(7, "x", null, null, null, null);
        assertThatThrownBy(() -> decoder.decode(origin, Envelopes.key(7), Envelopes.value("x", "null", after, 5)))
                .isInstanceOf(PoisonEventException.class)
                .hasMessageContaining("topic tm.public.orders partition 2 offset 41 key {\"id\":7}")
                .hasMessageContaining("unknown op 'x'");
    }

    @Test
    void garbageIsRejectedNamingTheRecord() {
        assertThatThrownBy(() -> decoder.decode(origin, Envelopes.key(7), "not json".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(PoisonEventException.class)
                .hasMessageStartingWith("topic tm.public.orders partition 2 offset 41");
    }

    @Test
    void cachedSchemaFastPathFollowsSchemaChanges() {
        EnvelopeEncoder enc = new EnvelopeEncoder("tm", "postgresql", "db");
        RowSchema a = new RowSchema(java.util.List.of(new Column("id", ColumnType.of("int64"), false),
                new Column("v", ColumnType.of("string"), true)), java.util.List.of("id"));
        RowSchema b = new RowSchema(java.util.List.of(new Column("id", ColumnType.of("int64"), false),
                new Column("v", ColumnType.of("string"), true), new Column("w", ColumnType.of("int32"), true)), java.util.List.of("id"));
        TableId t = new TableId("public", "t");
        java.util.List<ChangeEvent.Upsert> events = java.util.List.of(
                new ChangeEvent.Upsert(t, java.util.Map.of("id", 1L), a, java.util.Map.of("id", 1L, "v", "x"), new SourcePosition.Lsn(1), ChangeEvent.Op.CREATE),
                new ChangeEvent.Upsert(t, java.util.Map.of("id", 2L), a, java.util.Map.of("id", 2L, "v", "y"), new SourcePosition.Lsn(2), ChangeEvent.Op.CREATE),
                new ChangeEvent.Upsert(t, java.util.Map.of("id", 3L), b, java.util.Map.of("id", 3L, "v", "z", "w", 7L), new SourcePosition.Lsn(3), ChangeEvent.Op.UPDATE),
                new ChangeEvent.Upsert(t, java.util.Map.of("id", 4L), a, java.util.Map.of("id", 4L, "v", "q"), new SourcePosition.Lsn(4), ChangeEvent.Op.CREATE));
        for (ChangeEvent.Upsert u : events) {
            ChangeEvent back = decoder.decode(origin, enc.key(u, u.schema()), enc.value(u, u.schema(), 1));
            assertThat(back).isEqualTo(u);
        }
    }

    @Test
    void anIntervalAsMicrosecondsIsRefusedNamingTheDebeziumSetting() {
        ColumnType micros = new ColumnType("int64", ColumnType.MICRO_DURATION, java.util.Map.of());
        assertThatThrownBy(() -> decoder.decodeValue(micros, com.fasterxml.jackson.databind.node.LongNode.valueOf(2_629_800_000_000L)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("interval.handling.mode=string");
        assertThat(decoder.decodeValue(micros, com.fasterxml.jackson.databind.node.NullNode.getInstance())).isNull();
    }
}
