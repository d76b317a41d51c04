package dev.tidemark.jdbc.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.ColumnType;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each PostgreSQL type family is found in the registry by its column type and by its value. */
class PostgresTypesTest {

    @Test
    void eachFamilyIsFoundByItsColumnType() {
        assertThat(PostgresTypes.REGISTRY.forColumn(ColumnType.of("int32"))).isInstanceOf(IntegerType.class);
        assertThat(PostgresTypes.REGISTRY.forColumn(ColumnType.of("float64"))).isInstanceOf(FloatType.class);
        assertThat(PostgresTypes.REGISTRY.forColumn(new ColumnType("bytes", ColumnType.DECIMAL, Map.of()))).isInstanceOf(DecimalType.class);
        assertThat(PostgresTypes.REGISTRY.forColumn(ColumnType.of("boolean"))).isInstanceOf(BooleanType.class);
        assertThat(PostgresTypes.REGISTRY.forColumn(ColumnType.of("bytes"))).isInstanceOf(BytesType.class);
        assertThat(PostgresTypes.REGISTRY.forColumn(ColumnType.of("string"))).isInstanceOf(TextType.class);
        assertThat(PostgresTypes.REGISTRY.forColumn(new ColumnType("string", ColumnType.ZONED_TIMESTAMP, Map.of()))).isInstanceOf(TimestampType.class);
        assertThat(PostgresTypes.REGISTRY.forColumn(new ColumnType("int32", ColumnType.DATE, Map.of()))).isInstanceOf(DateType.class);
        assertThat(PostgresTypes.REGISTRY.forColumn(new ColumnType("int64", ColumnType.TIME_MICROS, Map.of()))).isInstanceOf(TimeType.class);
        assertThat(PostgresTypes.REGISTRY.forColumn(new ColumnType("string", ColumnType.JSON, Map.of()))).isInstanceOf(JsonType.class);
        assertThat(PostgresTypes.REGISTRY.forColumn(new ColumnType("string", ColumnType.UUID, Map.of()))).isInstanceOf(UuidType.class);
        assertThat(PostgresTypes.REGISTRY.forColumn(new ColumnType("string", ColumnType.INTERVAL, Map.of()))).isInstanceOf(IntervalType.class);
        assertThat(PostgresTypes.REGISTRY.forColumn(new ColumnType("string", null, Map.of(ColumnType.SOURCE_TYPE, "inet")))).isInstanceOf(InetType.class);
    }

    @Test
    void valuesFindTheirFamilyAndTextRoundTrips() {
        assertThat(PostgresTypes.REGISTRY.forValue(new BigDecimal("1.50"))).isInstanceOf(DecimalType.class);
        assertThat(PostgresTypes.REGISTRY.forValue(Instant.EPOCH)).isInstanceOf(TimestampType.class);
        assertThat(PostgresTypes.REGISTRY.text(new byte[] {10, -1})).isEqualTo("\\x0aff");
        assertThat(new BytesType().decode("\\x0aff")).isEqualTo(new byte[] {10, -1});
    }
}
