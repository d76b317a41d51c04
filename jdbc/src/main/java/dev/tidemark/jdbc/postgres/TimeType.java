package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeTemporals;
import dev.tidemark.jdbc.types.TargetType;
import dev.tidemark.jdbc.types.TypeKeys;
import java.time.LocalTime;
import java.time.temporal.Temporal;
import java.util.List;
import java.util.stream.Stream;

/** Times of day: {@code TIME}, {@code TIMETZ} for zoned ones (carried as text). */
final class TimeType implements NativeTemporals {

    @Override
    public List<String> keys() {
        return Stream.concat(TypeKeys.TIMES.stream(), Stream.of(TargetType.logical(ColumnType.ZONED_TIME))).toList();
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return type.is(ColumnType.ZONED_TIME) ? "TIMETZ" : "TIME";
    }

    @Override
    public List<Class<? extends Temporal>> javaTypes() {
        return List.of(LocalTime.class);
    }
}
