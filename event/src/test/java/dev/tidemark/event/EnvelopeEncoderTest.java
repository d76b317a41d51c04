package dev.tidemark.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/** Encoding then decoding gives back the same event: every producer speaks the capture contract. */
class EnvelopeEncoderTest {
    static final TableId T = new TableId("shop", "Invoice \"x\"");
    static final RowSchema S = new RowSchema(List.of(
            new Column("id", ColumnType.of("int64"), false),
            new Column("total", new ColumnType("bytes", ColumnType.DECIMAL, Map.of("scale", "2", "connect.decimal.precision", "10")), true),
            new Column("at", new ColumnType("string", ColumnType.ZONED_TIMESTAMP, Map.of()), true),
            new Column("local", new ColumnType("int64", ColumnType.TIMESTAMP_MICROS, Map.of()), true),
            new Column("day", new ColumnType("int32", ColumnType.DATE, Map.of()), true),
            new Column("time", new ColumnType("int64", ColumnType.TIME_MICROS, Map.of()), true),
            new Column("ratio", ColumnType.of("double"), true),
            new Column("ok", ColumnType.of("boolean"), true),
            new Column("name", ColumnType.of("string"), true)), List.of("id"));

    private final EnvelopeEncoder encoder = new EnvelopeEncoder("wm", "watermark", "sales");
    private final EnvelopeDecoder decoder = new EnvelopeDecoder();

    @Test
    void upsertRoundTrips() {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", 415L);
        row.put("total", new BigDecimal("99.00"));
        row.put("at", Instant.parse("2013-06-01T00:00:00.000001Z"));
        row.put("local", LocalDateTime.parse("1969-12-31T23:59:59.999999"));
        row.put("day", LocalDate.parse("2014-01-05"));
        row.put("time", LocalTime.parse("13:14:15.123456"));
        row.put("ratio", 0.1);
        row.put("ok", true);
        row.put("name", null);
        ChangeEvent.Upsert u = new ChangeEvent.Upsert(T, Map.of("id", 415L), S, row,
                new SourcePosition.Watermark("2013-06-01T00:00:00.000001Z|415"), ChangeEvent.Op.READ);
        ChangeEvent back = decoder.decode(new EventOrigin("wm.shop.x", 0, 0, null), encoder.key(u, S), encoder.value(u, S, 1));
        assertThat(back).isEqualTo(u);
    }

    @Test
    void deleteRoundTrips() {
        ChangeEvent.Delete d = new ChangeEvent.Delete(T, Map.of("id", 20L), new SourcePosition.Watermark("c"), false);
        ChangeEvent back = decoder.decode(new EventOrigin("wm.shop.x", 0, 0, null), encoder.key(d, S), encoder.value(d, S, 1));
        assertThat(back).isEqualTo(d);
        ChangeEvent tomb = decoder.decode(new EventOrigin("wm.shop.x", 0, 1, null), encoder.key(d, S), EnvelopeEncoder.tombstone());
        assertThat(tomb.key()).isEqualTo(Map.of("id", 20L));
        assertThat(tomb.table()).isEqualTo(T);
    }

    /**
     * A delete known by its key only (watermark mode's soft deletes, reconcile's repairs) has no values for the other
     * columns: a Connect consumer (JsonConverter with schemas, as every Connect sink reads these topics) must still
     * accept it — it refused a NOT NULL column's null ("Invalid null value for required STRING field").
     */
    @Test
    void aKeyOnlyDeleteIsAValidConnectRecordWhenOtherColumnsAreRequired() {
        RowSchema required = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false),
                new Column("note", ColumnType.of("string"), false), new Column("qty", ColumnType.of("int32"), false)), List.of("id"));
        ChangeEvent.Delete d = new ChangeEvent.Delete(T, Map.of("id", 20L), new SourcePosition.Watermark("c"), false);
        JsonConverter values = new JsonConverter();
        values.configure(Map.of("schemas.enable", "true"), false);
        JsonConverter keys = new JsonConverter();
        keys.configure(Map.of("schemas.enable", "true"), true);

        org.apache.kafka.connect.data.Struct value = (org.apache.kafka.connect.data.Struct)
                values.toConnectData("wm.shop.x", encoder.value(d, required, 1)).value();
        value.validate();
        assertThat(value.getString("op")).isEqualTo("d");
        assertThat(value.getStruct("before").get("id")).isEqualTo(20L);
        assertThat(keys.toConnectData("wm.shop.x", encoder.key(d, required)).value()).isNotNull();
        ChangeEvent back = decoder.decode(new EventOrigin("wm.shop.x", 0, 0, null), encoder.key(d, required), encoder.value(d, required, 1));
        assertThat(back).isEqualTo(d);
    }
}
