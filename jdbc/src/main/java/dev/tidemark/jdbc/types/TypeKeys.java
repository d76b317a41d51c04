package dev.tidemark.jdbc.types;

import static dev.tidemark.jdbc.types.TargetType.connect;
import static dev.tidemark.jdbc.types.TargetType.logical;

import dev.tidemark.event.ColumnType;
import java.util.List;

/** The {@link TargetType#keys()} that families of several engines claim alike. */
public final class TypeKeys {
    public static final List<String> INTEGERS = List.of(connect("int8"), connect("int16"), connect("int32"), connect("int64"));
    public static final List<String> FLOATS = List.of(connect("float"), connect("float32"), connect("double"), connect("float64"));
    public static final List<String> DECIMALS = List.of(logical(ColumnType.DECIMAL), logical(ColumnType.VARIABLE_SCALE_DECIMAL));
    public static final List<String> TIMESTAMPS = List.of(logical(ColumnType.ZONED_TIMESTAMP), logical(ColumnType.TIMESTAMP_MILLIS),
            logical(ColumnType.CONNECT_TIMESTAMP), logical(ColumnType.TIMESTAMP_MICROS), logical(ColumnType.TIMESTAMP_NANOS));
    public static final List<String> DATES = List.of(logical(ColumnType.DATE), logical(ColumnType.CONNECT_DATE));
    /** Local times of day; {@link ColumnType#ZONED_TIME} apart. */
    public static final List<String> TIMES = List.of(logical(ColumnType.TIME_MILLIS), logical(ColumnType.TIME_MICROS), logical(ColumnType.TIME_NANOS));

    private TypeKeys() {
    }

    /** The millisecond timestamps among {@link #TIMESTAMPS}. */
    public static boolean millis(ColumnType type) {
        return type.is(ColumnType.TIMESTAMP_MILLIS) || type.is(ColumnType.CONNECT_TIMESTAMP);
    }
}
