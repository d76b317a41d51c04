package dev.tidemark.sink.jdbc;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Canonical ISO-8601 text for temporal values stored in targets without native types: a fixed six-digit fraction
 * (nine when the value has nanoseconds), so text order equals time order and no precision is lost.
 */
public final class TemporalText {
    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS");
    private static final DateTimeFormatter NANOS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS");
    private static final DateTimeFormatter TIME_MICROS = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");
    private static final DateTimeFormatter TIME_NANOS = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSSSSS");

    private TemporalText() {
    }

    public static String instant(Instant i) {
        return localDateTime(LocalDateTime.ofInstant(i, ZoneOffset.UTC)) + "Z";
    }

    public static String localDateTime(LocalDateTime t) {
        return (t.getNano() % 1000 == 0 ? MICROS : NANOS).format(t);
    }

    public static String localTime(LocalTime t) {
        return (t.getNano() % 1000 == 0 ? TIME_MICROS : TIME_NANOS).format(t);
    }
}
