package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.TargetType;
import dev.tidemark.jdbc.types.TypeKeys;
import java.time.LocalTime;
import java.time.temporal.Temporal;
import java.util.List;
import java.util.stream.Stream;

/** Times of day as text, zoned ones too: {@code TIME_TEXT}. */
final class TimeType implements TemporalTextType {

    @Override
    public List<String> keys() {
        return Stream.concat(TypeKeys.TIMES.stream(), Stream.of(TargetType.logical(ColumnType.ZONED_TIME))).toList();
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "TIME_TEXT";
    }

    @Override
    public List<Class<? extends Temporal>> javaTypes() {
        return List.of(LocalTime.class);
    }
}
