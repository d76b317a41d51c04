package dev.tidemark.jdbc.postgres;

import static dev.tidemark.jdbc.types.Families.column;
import static dev.tidemark.jdbc.types.Families.logical;
import static dev.tidemark.jdbc.types.Families.source;
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
import java.time.LocalTime;
import org.junit.jupiter.api.Test;

/** Each PostgreSQL type family is found in the registry by its column type and by its value. */
class PostgresTypesTest {
    private static final TargetTypes R = PostgresTypes.REGISTRY;

    @Test
    void eachFamilyIsFoundByItsColumnType() {
        column(R, ColumnType.of("int32"), IntegerType.class, "INTEGER");
        column(R, ColumnType.of("float64"), FloatType.class, "DOUBLE PRECISION");
        column(R, logical("bytes", ColumnType.DECIMAL), DecimalType.class, "NUMERIC");
        column(R, ColumnType.of("boolean"), BooleanType.class, "BOOLEAN");
        column(R, ColumnType.of("bytes"), BytesType.class, "BYTEA");
        column(R, ColumnType.of("string"), TextType.class, "TEXT");
        column(R, logical("string", ColumnType.ZONED_TIMESTAMP), TemporalType.class, "TIMESTAMPTZ");
        column(R, logical("int32", ColumnType.DATE), TemporalType.class, "DATE");
        column(R, logical("int64", ColumnType.TIME_MICROS), TemporalType.class, "TIME");
        column(R, logical("string", ColumnType.ZONED_TIME), TemporalType.class, "TIMETZ");
        column(R, logical("string", ColumnType.JSON), CarriedAsText.class, "JSONB");
        column(R, logical("string", ColumnType.UUID), CarriedAsText.class, "UUID");
        column(R, logical("string", ColumnType.INTERVAL), CarriedAsText.class, "INTERVAL");
        column(R, source("inet"), CarriedAsText.class, "INET");
    }

    @Test
    void anArrayCarriedAsTextGetsTheSourceArrayType() {
        column(R, sourceText("_int4"), CarriedAsText.class, "\"int4\"[]");
        column(R, sourceText("_TIMESTAMPTZ"), CarriedAsText.class, "\"timestamptz\"[]");
        column(R, sourceText("int4range"), CarriedAsText.class, "\"int4range\"");
        column(R, sourceText(""), CarriedAsText.class, "TEXT");
        value(R, "[2:3]={1,2}", TextType.class, "[2:3]={1,2}");
    }

    @Test
    void aBitStringKeepsItsDeclaredLength() {
        column(R, sourceText("BIT", 3), CarriedAsText.class, "\"bit\"(3)");
        column(R, sourceText("VARBIT", 5), CarriedAsText.class, "\"varbit\"(5)");
        column(R, sourceText("VARBIT", Integer.MAX_VALUE), CarriedAsText.class, "\"varbit\"");
        column(R, sourceText("_BIT", 3), CarriedAsText.class, "\"bit\"[]");
    }

    private static ColumnType sourceText(String sourceType, int length) {
        return new ColumnType("string", ColumnType.SOURCE_TEXT, java.util.Map.of(ColumnType.SOURCE_TYPE, sourceType,
                ColumnType.SOURCE_LENGTH, Integer.toString(length)));
    }

    @Test
    void anEnumGetsTheSourceEnumType() {
        column(R, new ColumnType("string", ColumnType.ENUM, java.util.Map.of(ColumnType.SOURCE_TYPE, "MOOD")), CarriedAsText.class, "\"mood\"");
    }

    private static ColumnType sourceText(String sourceType) {
        return new ColumnType("string", ColumnType.SOURCE_TEXT, java.util.Map.of(ColumnType.SOURCE_TYPE, sourceType));
    }

    @Test
    void valuesFindTheirFamilyAndTextRoundTrips() {
        value(R, 7L, IntegerType.class, "7");
        value(R, 1.5d, FloatType.class, "1.5");
        value(R, new BigDecimal("1.50"), DecimalType.class, "1.50");
        value(R, true, BooleanType.class, "true");
        value(R, Instant.EPOCH, TemporalType.class, "1970-01-01T00:00:00Z");
        value(R, LocalDate.of(2024, 2, 29), TemporalType.class, "2024-02-29");
        value(R, LocalTime.of(10, 15, 30), TemporalType.class, "10:15:30");
        value(R, "x", TextType.class, "x");
        value(R, new byte[] {10, -1}, BytesType.class, "\\x0aff");
    }
}
