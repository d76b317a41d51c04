package dev.tidemark.tests.sink;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builders for change events of a wide, exact-typed test table. */
final class SinkEvents {
    static final ColumnType DECIMAL_20_6 = new ColumnType("bytes", ColumnType.DECIMAL, Map.of("scale", "6", "connect.decimal.precision", "20"));
    static final ColumnType ZONED = new ColumnType("string", ColumnType.ZONED_TIMESTAMP, Map.of());
    static final ColumnType LOCAL = new ColumnType("int64", ColumnType.TIMESTAMP_MICROS, Map.of());
    static final ColumnType DATE = new ColumnType("int32", ColumnType.DATE, Map.of());
    static final ColumnType TIME = new ColumnType("int64", ColumnType.TIME_MICROS, Map.of());

    private SinkEvents() {
    }

    static RowSchema wide(String key, String... extraTextColumns) {
        List<Column> cols = new ArrayList<>(List.of(
                new Column(key, ColumnType.of("int64"), false),
                new Column("price", DECIMAL_20_6, true),
                new Column("ratio", ColumnType.of("double"), true),
                new Column("happened", ZONED, true),
                new Column("local_ts", LOCAL, true),
                new Column("day", DATE, true),
                new Column("at_time", TIME, true),
                new Column("flag", ColumnType.of("boolean"), true),
                new Column("payload", ColumnType.of("bytes"), true),
                new Column("label", ColumnType.of("string"), true)));
        for (String extra : extraTextColumns) {
            cols.add(new Column(extra, ColumnType.of("string"), true));
        }
        return new RowSchema(cols, List.of(key));
    }

    static Map<String, Object> row(RowSchema schema, long id, String label) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (Column c : schema.columns()) {
            row.put(c.name(), switch (c.name()) {
                case "price" -> new BigDecimal("12345678901234.123456").add(BigDecimal.valueOf(id));
                case "ratio" -> 0.1 * id;
                case "happened" -> Instant.parse("2026-06-30T23:59:59.000001Z").plusSeconds(id);
                case "local_ts" -> LocalDateTime.parse("2026-03-01T10:15:30.654321").plusMinutes(id);
                case "day" -> LocalDate.parse("2026-03-01").plusDays(id);
                case "at_time" -> LocalTime.parse("13:14:15.123456");
                case "flag" -> id % 2 == 0;
                case "payload" -> new byte[] {0, (byte) 0xff, (byte) id};
                default -> c.name().equals(schema.keyColumns().get(0)) ? (Object) id : label;
            });
        }
        return row;
    }

    static ChangeEvent.Upsert upsert(TableId t, RowSchema s, long id, String label, long lsn) {
        return new ChangeEvent.Upsert(t, Map.of(s.keyColumns().get(0), id), s, row(s, id, label), new SourcePosition.Lsn(lsn),
                ChangeEvent.Op.CREATE);
    }

    static ChangeEvent.Upsert upsert(TableId t, RowSchema s, Map<String, Object> row, long lsn) {
        return new ChangeEvent.Upsert(t, Map.of(s.keyColumns().get(0), row.get(s.keyColumns().get(0))), s, row,
                new SourcePosition.Lsn(lsn), ChangeEvent.Op.UPDATE);
    }

    static ChangeEvent.Delete delete(TableId t, RowSchema s, long id, long lsn) {
        return new ChangeEvent.Delete(t, Map.of(s.keyColumns().get(0), id), new SourcePosition.Lsn(lsn), false);
    }
}
