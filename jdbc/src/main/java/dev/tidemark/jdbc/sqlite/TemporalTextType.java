package dev.tidemark.jdbc.sqlite;

import dev.tidemark.jdbc.TemporalText;
import dev.tidemark.jdbc.types.NativeTemporals;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * Date-times, dates and times stored as text ({@code TEXT} affinity) in {@link TemporalText}'s fixed-width ISO-8601
 * (full fraction, {@code Z} for instants), so text order is time order; dates in ISO form.
 */
interface TemporalTextType extends NativeTemporals {

    @Override
    default void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        statement.setString(index, text(value));
    }

    @Override
    default String text(Object value) {
        if (value instanceof Instant i) {
            return TemporalText.instant(i);
        }
        if (value instanceof LocalDateTime t) {
            return TemporalText.localDateTime(t);
        }
        return value instanceof LocalTime t ? TemporalText.localTime(t) : value.toString();
    }
}
