package dev.tidemark.jdbc.mariadb;

import static dev.tidemark.jdbc.types.Families.column;
import static dev.tidemark.jdbc.types.Families.logical;
import static dev.tidemark.jdbc.types.Families.value;
import static org.assertj.core.api.Assertions.assertThat;

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

/** Each MariaDB type family is found in the registry by its column type and by its value. */
class MariaDbTypesTest {
    private static final TargetTypes R = MariaDbTypes.REGISTRY;

    @Test
    void eachFamilyIsFoundByItsColumnType() {
        column(R, ColumnType.of("int32"), IntegerType.class, "INT");
        column(R, ColumnType.of("float32"), FloatType.class, "FLOAT");
        column(R, logical("bytes", ColumnType.VARIABLE_SCALE_DECIMAL), DecimalType.class, "DECIMAL(65,30)");
        column(R, ColumnType.of("boolean"), BooleanType.class, "BOOLEAN");
        column(R, ColumnType.of("bytes"), BytesType.class, "LONGBLOB");
        column(R, ColumnType.of("string"), TextType.class, "LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin");
        column(R, logical("string", ColumnType.ZONED_TIMESTAMP), TemporalType.class, "DATETIME(6)");
        column(R, logical("int64", ColumnType.TIMESTAMP_MILLIS), TemporalType.class, "DATETIME(3)");
        column(R, logical("int32", ColumnType.DATE), TemporalType.class, "DATE");
        column(R, logical("int64", ColumnType.TIME_MICROS), TemporalType.class, "TIME(6)");
        column(R, logical("string", ColumnType.JSON), CarriedAsText.class, "JSON");
        column(R, logical("string", ColumnType.UUID), CarriedAsText.class, "UUID");
    }

    @Test
    void zonedTimesAreTextAndKeysAreSizedVarchars() {
        column(R, logical("string", ColumnType.ZONED_TIME), TextType.class, "LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin");
        assertThat(R.ddl(ColumnType.of("bytes"), true)).isEqualTo("VARBINARY(768)");
        assertThat(R.ddl(logical("string", ColumnType.JSON), true)).startsWith("VARCHAR(768) ");
    }

    @Test
    void valuesFindTheirFamilyAndTextRoundTrips() {
        value(R, 7L, IntegerType.class, "7");
        value(R, Double.NaN, FloatType.class, "NaN");
        value(R, new BigDecimal("12.340"), DecimalType.class, "12.340");
        value(R, false, BooleanType.class, "false");
        value(R, Instant.EPOCH, TemporalType.class, "1970-01-01T00:00:00Z");
        value(R, LocalDate.of(2024, 2, 29), TemporalType.class, "2024-02-29");
        value(R, LocalTime.of(10, 15, 30), TemporalType.class, "10:15:30");
        value(R, "x", TextType.class, "x");
        value(R, new byte[] {10, -1}, BytesType.class, "0aff");
    }
}
