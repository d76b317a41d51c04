package dev.tidemark.event;

import java.time.Instant;
import java.time.LocalDate;

/**
 * Parses the UTC timestamps Debezium writes for zoned timestamps ({@code 2024-05-01T10:15:30.123456Z}: four-digit
 * year, seconds, 0–9 fraction digits, {@code Z}) without the general formatter machinery, which costs a
 * measurable share of decoding. Anything else (offsets, leap seconds, signed or longer years, invalid dates) goes to
 * {@link Instant#parse}, so results and errors are exactly {@code Instant.parse}'s.
 */
final class IsoInstant {
    private static final int[] SCALE = {1, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};

    private IsoInstant() {
    }

    static Instant parse(String s) {
        int n = s.length();
        if (n < 20 || n == 21 || n > 30 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T'
                || s.charAt(13) != ':' || s.charAt(16) != ':' || s.charAt(n - 1) != 'Z' || (n > 20 && s.charAt(19) != '.')) {
            return Instant.parse(s);
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 7);
        int day = digits(s, 8, 10);
        int hour = digits(s, 11, 13);
        int minute = digits(s, 14, 16);
        int second = digits(s, 17, 19);
        int fraction = n > 20 ? digits(s, 20, n - 1) : 0;
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > 28 && day > LocalDate.of(year, month, 1).lengthOfMonth()
                || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || fraction < 0) {
            return Instant.parse(s);
        }
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        int nanos = n > 20 ? fraction * SCALE[n - 1 - 20] : 0;
        return Instant.ofEpochSecond(epochDay * 86_400L + hour * 3_600L + minute * 60L + second, nanos);
    }

    /** The decimal value of {@code s[from, to)}, or -1 when a character is not an ASCII digit. */
    private static int digits(String s, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
