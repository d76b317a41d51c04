package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeTemporals;
import dev.tidemark.jdbc.types.TypeKeys;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.Temporal;
import java.util.List;

/**
 * Timestamps: {@code TIMESTAMPTZ} for zoned ones, {@code TIMESTAMP(3)} for millisecond ones, else {@code TIMESTAMP};
 * an {@link Instant} is bound as a UTC {@link java.time.OffsetDateTime}.
 */
final class TimestampType implements NativeTemporals {

    @Override
    public List<String> keys() {
        return TypeKeys.TIMESTAMPS;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        if (type.is(ColumnType.ZONED_TIMESTAMP)) {
            return "TIMESTAMPTZ";
        }
        return TypeKeys.millis(type) ? "TIMESTAMP(3)" : "TIMESTAMP";
    }

    @Override
    public List<Class<? extends Temporal>> javaTypes() {
        return List.of(Instant.class, LocalDateTime.class);
    }

    @Override
    public Object instant(Instant value) {
        return value.atOffset(ZoneOffset.UTC);
    }
}
