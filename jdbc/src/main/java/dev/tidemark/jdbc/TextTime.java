package dev.tidemark.jdbc;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.time.temporal.Temporal;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Date-time values kept as text (SQLite has no temporal type: {@code '2013-12-22 00:00:00'},
 * {@code '2024-05-01T10:15:30.123456Z'}, {@code '2009-01-01'}), parsed with their <em>shape</em> (separator, fraction
 * digits, zone suffix) so that a computed bound can be written back in the same shape and compare correctly as text
 * against the column.
 *
 * @param value a {@link LocalDate}, {@link LocalDateTime} or {@link Instant}
 */
public record TextTime(Temporal value, Shape shape) {
    private static final Pattern DATE_TIME = Pattern.compile(
            "(\\d{4}-\\d{2}-\\d{2})(?:([ T])(\\d{2}:\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?)?(Z|[+-]\\d{2}:?\\d{2})?");

    /** How a value is written: {@code dateOnly}, separator, whether seconds appear, fraction digits, zone suffix. */
    public record Shape(boolean dateOnly, char separator, boolean seconds, int fractionDigits, String zone) {
    }

    /** Parses {@code text}, or empty when it is not a date or date-time in one of the shapes above. */
    public static Optional<TextTime> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = DATE_TIME.matcher(text.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            LocalDate date = LocalDate.parse(m.group(1));
            if (m.group(2) == null) {
                return Optional.of(new TextTime(date, new Shape(true, ' ', false, 0, null)));
            }
            String frac = m.group(5) == null ? "" : m.group(5);
            String time = m.group(3) + ":" + (m.group(4) == null ? "00" : m.group(4))
                    + (frac.isEmpty() ? "" : "." + frac);
            LocalDateTime ldt = LocalDateTime.parse(m.group(1) + "T" + time);
            String zone = m.group(6);
            Shape shape = new Shape(false, m.group(2).charAt(0), m.group(4) != null, frac.length(), zone);
            if (zone == null) {
                return Optional.of(new TextTime(ldt, shape));
            }
            ZoneOffset offset = zone.equals("Z") ? ZoneOffset.UTC : ZoneOffset.of(zone.length() == 5
                    ? zone.substring(0, 3) + ":" + zone.substring(3) : zone);
            return Optional.of(new TextTime(OffsetDateTime.of(ldt, offset).toInstant(), shape));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Writes {@code t} (same kind of value as {@link #value()}) in {@code shape}, truncating finer parts the shape
     * cannot hold: a computed bound only ever moves down, which re-reads rather than skips.
     */
    public static String format(Temporal t, Shape shape) {
        if (shape.dateOnly()) {
            LocalDate d = t instanceof LocalDate ld ? ld : t instanceof LocalDateTime ldt ? ldt.toLocalDate()
                    : LocalDateTime.ofInstant((Instant) t, ZoneOffset.UTC).toLocalDate();
            return d.toString();
        }
        LocalDateTime ldt;
        if (t instanceof Instant i) {
            ZoneOffset offset = shape.zone() == null || shape.zone().equals("Z") ? ZoneOffset.UTC
                    : ZoneOffset.of(shape.zone().length() == 5 ? shape.zone().substring(0, 3) + ":" + shape.zone().substring(3) : shape.zone());
            ldt = LocalDateTime.ofInstant(i, offset);
        } else if (t instanceof LocalDate d) {
            ldt = d.atStartOfDay();
        } else {
            ldt = (LocalDateTime) t;
        }
        StringBuilder pattern = new StringBuilder("uuuu-MM-dd'").append(shape.separator()).append("'HH:mm");
        if (shape.seconds() || shape.fractionDigits() > 0) {
            pattern.append(":ss");
        } else {
            ldt = ldt.truncatedTo(ChronoUnit.MINUTES);
        }
        if (shape.fractionDigits() > 0) {
            pattern.append('.').append("S".repeat(shape.fractionDigits()));
        }
        String s = DateTimeFormatter.ofPattern(pattern.toString()).format(ldt);
        return shape.zone() == null ? s : s + shape.zone();
    }
}
