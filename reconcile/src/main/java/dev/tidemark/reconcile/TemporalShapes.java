package dev.tidemark.reconcile;

/**
 * Rewrites the temporal text shapes that {@link CanonicalValues}' fast paths leave aside into ISO-8601 text that
 * {@code java.time} parses, so that they too get one canonical text whatever engine printed them. Pure functions.
 * <ul>
 *   <li>PostgreSQL's era suffix: {@code 0044-03-15 10:00:00+00 BC} → {@code -0043-03-15 10:00:00+00} (ISO counts a
 *       year 0, so 1 BC is year {@code 0000} and 44 BC is {@code -0043}, as {@code LocalDate} prints them);</li>
 *   <li>years past 9999, which PostgreSQL prints without a sign: {@code 12345-06-07} → {@code +12345-06-07};</li>
 *   <li>MariaDB's {@code TIME}, an interval of up to ±838 hours: {@code -1:02:03.5} → {@code -01:02:03.500000}
 *       (see {@link #durationTime}).</li>
 * </ul>
 * Anything else is returned unchanged.
 */
final class TemporalShapes {
    private static final String BC = " BC";

    private TemporalShapes() {
    }

    /** {@code text} with PostgreSQL's era suffix and unsigned long years rewritten as ISO signed years. */
    static String isoYears(String text) {
        boolean bc = text.endsWith(BC);
        String s = bc ? text.substring(0, text.length() - BC.length()) : text;
        int dash = s.indexOf('-');
        if (dash < 4 || !digits(s, 0, dash)) {
            return text;
        }
        if (!bc) {
            return dash > 4 ? "+" + s : s;
        }
        long year = 1 - Long.parseLong(s.substring(0, dash));
        String digits = Long.toString(-year);
        return (year < 0 ? "-" : "") + "0".repeat(Math.max(0, 4 - digits.length())) + digits + s.substring(dash);
    }

    /**
     * A time of day or a MariaDB {@code TIME} interval ({@code [-]H+:MM:SS[.f{1,6}]}) as {@code [-]HH:MM:SS.ffffff},
     * hours at least two digits; null for any other shape. {@code 24:00:00} stays apart from {@code 00:00:00}.
     */
    static String durationTime(String s) {
        int i = s.startsWith("-") ? 1 : 0;
        int colon = s.indexOf(':', i);
        if (colon - i < 1 || colon - i > 3 || !digits(s, i, colon) || s.length() < colon + 6 || s.charAt(colon + 3) != ':'
                || !digits(s, colon + 1, colon + 3) || !digits(s, colon + 4, colon + 6)) {
            return null;
        }
        int end = colon + 6;
        String fraction = "";
        if (end < s.length()) {
            if (s.charAt(end) != '.' || s.length() - end - 1 > 6 || s.length() - end - 1 < 1 || !digits(s, end + 1, s.length())) {
                return null;
            }
            fraction = s.substring(end + 1);
        }
        int hours = Integer.parseInt(s, i, colon, 10);
        StringBuilder b = new StringBuilder(18).append(s, 0, i);
        if (hours < 10) {
            b.append('0');
        }
        b.append(hours).append(s, colon, end).append('.').append(fraction);
        b.append("000000", 0, 6 - fraction.length());
        return b.toString();
    }

    private static boolean digits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return from < to;
    }
}
