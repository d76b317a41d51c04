package dev.tidemark.jdbc.mariadb;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeTemporals;
import dev.tidemark.jdbc.types.TypeKeys;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.Temporal;
import java.util.List;

/**
 * Timestamps: {@code DATETIME(3)} for millisecond ones, else {@code DATETIME(6)}, zoned ones too, in UTC (MariaDB's
 * {@code TIMESTAMP} ends in 2038); an {@link Instant} is bound as its UTC wall-clock time.
 */
final class TimestampType implements NativeTemporals {

    @Override
    public List<String> keys() {
        return TypeKeys.TIMESTAMPS;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return TypeKeys.millis(type) ? "DATETIME(3)" : "DATETIME(6)";
    }

    @Override
    public List<Class<? extends Temporal>> javaTypes() {
        return List.of(Instant.class, LocalDateTime.class);
    }

    @Override
    public Object instant(Instant value) {
        return LocalDateTime.ofInstant(value, ZoneOffset.UTC);
    }
}
