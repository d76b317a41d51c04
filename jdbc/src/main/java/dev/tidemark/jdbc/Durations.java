package dev.tidemark.jdbc;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Human durations for settings: {@code 500ms}, {@code 5s}, {@code 90m}, {@code 1h30m}, {@code 1d}, {@code 2w}, or
 * ISO-8601 ({@code PT5S}). Parsing rejects anything else with a message naming the value.
 */
public final class Durations {
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d|w)");

    private Durations() {
    }

    public static Duration parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty duration (expected e.g. 5s, 90m, 1d)");
        }
        String s = text.trim();
        if (s.startsWith("P") || s.startsWith("p")) {
            try {
                return Duration.parse(s);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("'" + text + "' is not an ISO-8601 duration");
            }
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = PART.matcher(s);
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) {
                break;
            }
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofDays(7 * n);
            });
            end = m.end();
        }
        if (end != s.length() || end == 0) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (expected e.g. 500ms, 5s, 90m, 1h30m, 1d, 2w)");
        }
        return total;
    }

    /** Compact text, largest units first: {@code 204d}, {@code 1h30m}, {@code 5s}, {@code 250ms}, {@code 0s}. */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        StringBuilder b = new StringBuilder(d.isNegative() ? "-" : "");
        Duration a = d.abs();
        long days = a.toDays();
        if (days > 0) {
            b.append(days).append('d');
        }
        if (a.toHoursPart() > 0) {
            b.append(a.toHoursPart()).append('h');
        }
        if (a.toMinutesPart() > 0) {
            b.append(a.toMinutesPart()).append('m');
        }
        if (a.toSecondsPart() > 0) {
            b.append(a.toSecondsPart()).append('s');
        }
        long micros = a.toNanosPart() / 1000;
        if (micros > 0) {
            b.append(micros % 1000 == 0 ? (micros / 1000) + "ms" : micros + "us");
        }
        if (b.length() == (d.isNegative() ? 1 : 0)) {
            b.append(a.toNanosPart()).append("ns");
        }
        return b.toString();
    }
}
