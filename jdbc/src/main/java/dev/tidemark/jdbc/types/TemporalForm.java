package dev.tidemark.jdbc.types;

import dev.tidemark.jdbc.TemporalText;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/** How one engine binds and writes date-times, dates and times. */
public enum TemporalForm {
    /** Native values; an {@link Instant} as a UTC {@link java.time.OffsetDateTime}. Text ISO-8601. */
    INSTANT_AS_OFFSET,
    /** Native values; an {@link Instant} as its UTC wall-clock time (sessions run in UTC). Text ISO-8601. */
    INSTANT_AS_LOCAL,
    /**
     * Text in {@link TemporalText}'s fixed-width ISO-8601 (full fraction, {@code Z} for instants), so text order is
     * time order; dates in ISO form.
     */
    TEXT;

    void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        switch (this) {
            case TEXT -> statement.setString(index, text(value));
            case INSTANT_AS_OFFSET -> statement.setObject(index, value instanceof Instant i ? i.atOffset(ZoneOffset.UTC) : value);
            case INSTANT_AS_LOCAL -> statement.setObject(index, value instanceof Instant i ? LocalDateTime.ofInstant(i, ZoneOffset.UTC) : value);
        }
    }

    String text(Object value) {
        if (this != TEXT) {
            return value.toString();
        }
        if (value instanceof Instant i) {
            return TemporalText.instant(i);
        }
        if (value instanceof LocalDateTime t) {
            return TemporalText.localDateTime(t);
        }
        return value instanceof LocalTime t ? TemporalText.localTime(t) : value.toString();
    }
}
