package dev.tidemark.jdbc.types;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.temporal.Temporal;
import java.util.List;

/**
 * A family whose values are date-times, dates or times (of the classes {@link #javaTypes()} lists), bound as
 * {@code setObject} of the value, an {@link Instant} as {@link #instant} makes of it; text ISO-8601 ({@code Z} for
 * instants), which {@link #decode} reads back.
 */
public interface NativeTemporals extends TargetType {

    /** The classes of value this family binds: some of Instant, LocalDateTime, LocalDate, LocalTime. */
    List<Class<? extends Temporal>> javaTypes();

    /** What an instant is bound as (an offset date-time in UTC, or the UTC wall-clock time); the instant by default. */
    default Object instant(Instant value) {
        return value;
    }

    @Override
    default boolean holds(Object value) {
        return javaTypes().stream().anyMatch(c -> c.isInstance(value));
    }

    @Override
    default void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        statement.setObject(index, value instanceof Instant i ? instant(i) : value);
    }

    @Override
    default Object decode(String text) {
        if (text.endsWith("Z")) {
            return Instant.parse(text);
        }
        if (text.contains("T")) {
            return LocalDateTime.parse(text);
        }
        return text.contains(":") ? LocalTime.parse(text) : LocalDate.parse(text);
    }
}
