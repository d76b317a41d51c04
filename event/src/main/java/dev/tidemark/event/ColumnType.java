package dev.tidemark.event;

import java.util.Map;
import java.util.Objects;

/**
 * The type of a column as the event schema describes it: the Kafka Connect physical type ({@code int64},
 * {@code string}, ...), the optional logical name ({@code org.apache.kafka.connect.data.Decimal},
 * {@code io.debezium.time.ZonedTimestamp}, ...) and the schema parameters (scale, precision, source column type).
 */
public record ColumnType(String connectType, String logicalName, Map<String, String> parameters) {
    public static final String DECIMAL = "org.apache.kafka.connect.data.Decimal";
    public static final String VARIABLE_SCALE_DECIMAL = "io.debezium.data.VariableScaleDecimal";
    public static final String DATE = "io.debezium.time.Date";
    public static final String CONNECT_DATE = "org.apache.kafka.connect.data.Date";
    public static final String TIME_MILLIS = "io.debezium.time.Time";
    public static final String TIME_MICROS = "io.debezium.time.MicroTime";
    public static final String TIME_NANOS = "io.debezium.time.NanoTime";
    public static final String ZONED_TIME = "io.debezium.time.ZonedTime";
    public static final String TIMESTAMP_MILLIS = "io.debezium.time.Timestamp";
    public static final String TIMESTAMP_MICROS = "io.debezium.time.MicroTimestamp";
    public static final String TIMESTAMP_NANOS = "io.debezium.time.NanoTimestamp";
    public static final String CONNECT_TIMESTAMP = "org.apache.kafka.connect.data.Timestamp";
    public static final String ZONED_TIMESTAMP = "io.debezium.time.ZonedTimestamp";
    public static final String JSON = "io.debezium.data.Json";
    public static final String UUID = "io.debezium.data.Uuid";
    /** An enum's label ({@code happy}); the enum type's name is in {@link #SOURCE_TYPE}. */
    public static final String ENUM = "io.debezium.data.Enum";
    /**
     * A value carried as the source database's own text (a PostgreSQL array: {@code [2:3]={1,2}}); the source type
     * is in {@link #SOURCE_TYPE} ({@code _int4}). Tidemark's converter names it; Debezium does not.
     */
    public static final String SOURCE_TEXT = "dev.tidemark.data.SourceText";
    /** An interval as ISO-8601 text ({@code P1Y2M3DT4H5M6.789S}), each field kept apart ({@code interval.handling.mode=string}). */
    public static final String INTERVAL = "io.debezium.time.Interval";
    /**
     * An interval as a number of microseconds ({@code interval.handling.mode=numeric}, Debezium's default): months
     * were turned into 30.4375 days, so the source value cannot be recovered; the decoder refuses it.
     */
    public static final String MICRO_DURATION = "io.debezium.time.MicroDuration";
    /** Schema parameter: the source column's type name as the source database spells it ({@code BPCHAR}, {@code INET}). */
    public static final String SOURCE_TYPE = "__debezium.source.column.type";
    /** Schema parameter: the source column's declared length ({@code 5} for {@code char(5)}). */
    public static final String SOURCE_LENGTH = "__debezium.source.column.length";

    public ColumnType {
        Objects.requireNonNull(connectType, "connectType");
        parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
    }

    public static ColumnType of(String connectType) {
        return new ColumnType(connectType, null, Map.of());
    }

    public boolean is(String logical) {
        return logical.equals(logicalName);
    }

    /** The source column's type name in upper case ({@code BPCHAR}, {@code INET}), or "" when the schema does not give it. */
    public String sourceType() {
        return parameters.getOrDefault(SOURCE_TYPE, "").toUpperCase(java.util.Locale.ROOT);
    }

    /** The source column's declared length, or -1 when the schema does not give one. */
    public int sourceLength() {
        return intParameter(SOURCE_LENGTH, -1);
    }

    /** Decimal scale from the schema parameters, or -1 when the schema does not give one. */
    public int scale() {
        return intParameter("scale", -1);
    }

    /** Decimal precision (from {@code connect.decimal.precision} or the propagated source length), or -1. */
    public int precision() {
        int p = intParameter("connect.decimal.precision", -1);
        return p >= 0 ? p : intParameter(SOURCE_LENGTH, -1);
    }

    private int intParameter(String name, int fallback) {
        String v = parameters.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
