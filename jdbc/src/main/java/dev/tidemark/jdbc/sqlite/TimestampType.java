package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.TypeKeys;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.temporal.Temporal;
import java.util.List;

/** Timestamps as text: {@code TIMESTAMPTZ_TEXT} for zoned ones (in UTC with {@code Z}), else {@code TIMESTAMP_TEXT}. */
final class TimestampType implements TemporalTextType {

    @Override
    public List<String> keys() {
        return TypeKeys.TIMESTAMPS;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return type.is(ColumnType.ZONED_TIMESTAMP) ? "TIMESTAMPTZ_TEXT" : "TIMESTAMP_TEXT";
    }

    @Override
    public List<Class<? extends Temporal>> javaTypes() {
        return List.of(Instant.class, LocalDateTime.class);
    }
}
