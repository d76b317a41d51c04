package dev.tidemark.jdbc;

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
        int year = t.getYear();
        if (year < 0 || year > 9999) {
            return (t.getNano() % 1000 == 0 ? MICROS : NANOS).format(t);
        }
        // hand-rolled: this runs for every temporal value the sink writes to SQLite
        StringBuilder b = new StringBuilder(29);
        pad(b, year, 4).append('-');
        pad(b, t.getMonthValue(), 2).append('-');
        pad(b, t.getDayOfMonth(), 2).append('T');
        pad(b, t.getHour(), 2).append(':');
        pad(b, t.getMinute(), 2).append(':');
        pad(b, t.getSecond(), 2).append('.');
        int nano = t.getNano();
        return (nano % 1000 == 0 ? pad(b, nano / 1000, 6) : pad(b, nano, 9)).toString();
    }

    private static StringBuilder pad(StringBuilder b, int value, int width) {
        String s = Integer.toString(value);
        for (int i = s.length(); i < width; i++) {
            b.append('0');
        }
        return b.append(s);
    }

    public static String localTime(LocalTime t) {
        return (t.getNano() % 1000 == 0 ? TIME_MICROS : TIME_NANOS).format(t);
    }
}
