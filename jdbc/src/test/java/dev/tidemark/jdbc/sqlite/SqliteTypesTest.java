package dev.tidemark.jdbc.sqlite;

import static dev.tidemark.jdbc.types.Families.column;
import static dev.tidemark.jdbc.types.Families.logical;
import static dev.tidemark.jdbc.types.Families.value;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.BooleanType;
import dev.tidemark.jdbc.types.BytesType;
import dev.tidemark.jdbc.types.CarriedAsText;
import dev.tidemark.jdbc.types.DecimalType;
import dev.tidemark.jdbc.types.FloatType;
import dev.tidemark.jdbc.types.IntegerType;
import dev.tidemark.jdbc.types.TargetTypes;
import dev.tidemark.jdbc.types.TemporalType;
import dev.tidemark.jdbc.types.TextType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each SQLite type family is found in the registry by its column type and by its value. */
class SqliteTypesTest {
    private static final TargetTypes R = SqliteTypes.REGISTRY;

    @Test
    void eachFamilyIsFoundByItsColumnType() {
        column(R, ColumnType.of("int16"), IntegerType.class, "INTEGER");
        column(R, ColumnType.of("float64"), FloatType.class, "REAL");
        column(R, new ColumnType("bytes", ColumnType.DECIMAL, Map.of("connect.decimal.precision", "12", "scale", "2")),
                DecimalType.class, "DECIMAL_TEXT(12,2)");
        column(R, ColumnType.of("boolean"), BooleanType.class, "BOOLEAN_INTEGER");
        column(R, ColumnType.of("bytes"), BytesType.class, "BLOB");
        column(R, ColumnType.of("string"), TextType.class, "TEXT");
        column(R, logical("string", ColumnType.ZONED_TIMESTAMP), TemporalType.class, "TIMESTAMPTZ_TEXT");
        column(R, logical("int64", ColumnType.TIMESTAMP_MICROS), TemporalType.class, "TIMESTAMP_TEXT");
        column(R, logical("int32", ColumnType.DATE), TemporalType.class, "DATE_TEXT");
        column(R, logical("string", ColumnType.ZONED_TIME), TemporalType.class, "TIME_TEXT");
        column(R, logical("string", ColumnType.JSON), CarriedAsText.class, "JSON_TEXT");
        column(R, logical("string", ColumnType.UUID), CarriedAsText.class, "UUID_TEXT");
    }

    @Test
    void valuesFindTheirFamilyAndTextRoundTrips() {
        value(R, 7L, IntegerType.class, "7");
        value(R, Double.POSITIVE_INFINITY, FloatType.class, "Infinity");
        value(R, new BigDecimal("-0.10"), DecimalType.class, "-0.10");
        value(R, true, BooleanType.class, "1");
        value(R, Instant.EPOCH, TemporalType.class, "1970-01-01T00:00:00.000000Z");
        value(R, LocalDateTime.of(2024, 5, 1, 10, 15, 30), TemporalType.class, "2024-05-01T10:15:30.000000");
        value(R, LocalDate.of(2024, 2, 29), TemporalType.class, "2024-02-29");
        value(R, LocalTime.of(10, 15, 30), TemporalType.class, "10:15:30.000000");
        value(R, "x", TextType.class, "x");
        value(R, new byte[] {10, -1}, BytesType.class, "0aff");
    }
}
