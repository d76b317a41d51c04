package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;

import dev.tidemark.jdbc.TemporalText;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.HexFormat;

/**
 * Canonical text of a value for checksums: equal values give equal text on every engine. Decimals without trailing
 * zeros ({@code 12.50} → {@code 12.5}), instants in UTC with six fraction digits, booleans as {@code true}/{@code
 * false}, bytes as hex, NULL as a marker that no text can equal.
 */
public final class CanonicalValues {
    static final String NULL = "\u0000NULL";
    private static final java.util.regex.Pattern OFFSET = java.util.regex.Pattern.compile("T.*([+-]\\d\\d(?::?\\d\\d(?::?\\d\\d)?)?)$");

    private CanonicalValues() {
    }

    /**
     * Reads column {@code i} of a row from any engine as {@code kind}: bytes as bytes, everything else through its
     * text form, which every driver renders losslessly (PostgreSQL {@code 2026-01-02 03:04:05.000007+00}, MariaDB
     * {@code 2026-01-02 03:04:05.000007}, SQLite {@code 2026-01-02T03:04:05.000007Z}).
     */
    public static String read(ResultSet rs, int i, ValueKind kind) throws SQLException {
        return canonical(kind == ValueKind.BYTES ? rs.getBytes(i) : rs.getString(i), kind);
    }

    /**
     * Canonical text of a value read as text (a driver's {@code getString}, a PostgreSQL {@code COPY} field), or null
     * for SQL NULL. Equal to {@link #canonical} for every input it can parse; the common shapes of each engine take
     * a fast path without parsing ({@code 12.50000000}, {@code 2026-01-02 03:04:05.000007+00},
     * {@code 2026-01-02T03:04:05.000007Z}, {@code t}); PostgreSQL's BC dates and years past 9999 get ISO's signed
     * years ({@code 0044-03-15 BC} → {@code -0043-03-15}, as {@code LocalDate} prints it), MariaDB's {@code TIME}
     * beyond a day keeps its hours ({@code -01:02:03.500000}), SQLite's {@code Inf} is {@code Infinity}; text that
     * does not parse as {@code kind} at all (PostgreSQL's {@code infinity}, {@code NaN}) stays as it is, so it still
     * compares equal to the same text on the other side. Lossless: distinct values never share a text, and no value
     * has NULL's. A PostgreSQL bytea in hex output form ({@code \x0a0b}) becomes its hex digits.
     */
    public static String ofText(String raw, ValueKind kind) {
        if (raw == null) {
            return null;
        }
        String fast = switch (kind) {
            case TEXT -> raw;
            case INTEGER -> PlainShapes.plainInteger(raw, 0, raw.length()) ? raw : null;
            case DECIMAL -> plainDecimal(raw);
            case BOOLEAN -> booleanText(raw);
            case TIMESTAMPTZ -> dateTime(raw, true);
            case TIMESTAMP -> dateTime(raw, false);
            case DATE -> raw.length() == 10 && PlainShapes.datePart(raw, 0) ? raw : null;
            case TIME -> time(raw);
            case BYTES -> raw.length() >= 2 && raw.charAt(0) == '\\' && raw.charAt(1) == 'x' ? lowerHex(raw) : null;
            case FLOAT -> null;
        };
        if (fast != null) {
            return fast;
        }
        try {
            return switch (kind) {
                case INTEGER -> integer(raw);
                case DATE, TIMESTAMP, TIMESTAMPTZ -> canonical(TemporalShapes.isoYears(raw), kind);
                case TIME -> {
                    String t = TemporalShapes.durationTime(raw);
                    yield t != null ? t : canonical(raw, kind);
                }
                case FLOAT -> floating(raw);
                default -> canonical(raw, kind);
            };
        } catch (RuntimeException e) {
            return raw;
        }
    }

    private static String integer(String raw) {
        try {
            return canonical(raw, ValueKind.INTEGER);
        } catch (NumberFormatException e) {
            // an integer stored as real or decimal text (SQLite affinity): 3.0 is 3
            return new BigDecimal(raw.trim()).toBigIntegerExact().toString();
        }
    }

    /** Java's spelling of a double ({@code -0.0} apart from {@code 0.0}); SQLite's {@code Inf} is infinity. */
    private static String floating(String raw) {
        return switch (raw) {
            case "Inf", "inf", "Infinity", "infinity" -> "Infinity";
            case "-Inf", "-inf", "-Infinity", "-infinity" -> "-Infinity";
            case "NaN", "nan" -> "NaN";
            default -> canonical(raw, ValueKind.FLOAT);
        };
    }

    /** Canonical text of column {@code i} (see {@link #ofText}); null for SQL NULL. */
    public static String readText(ResultSet rs, int i, ValueKind kind) throws SQLException {
        if (kind == ValueKind.BYTES) {
            byte[] b = rs.getBytes(i);
            return b == null ? null : HexFormat.of().formatHex(b);
        }
        return ofText(rs.getString(i), kind);
    }

    private static String lowerHex(String pgHex) {
        StringBuilder b = new StringBuilder(pgHex.length() - 2);
        for (int i = 2; i < pgHex.length(); i++) {
            b.append(Character.toLowerCase(pgHex.charAt(i)));
        }
        return b.toString();
    }

    /** A plain decimal without trailing fraction zeros ({@link PlainShapes#plainDecimalEnd}), or null for any other shape. */
    private static String plainDecimal(String s) {
        int end = PlainShapes.plainDecimalEnd(s, 0, s.length());
        if (end < 0) {
            return null;
        }
        return PlainShapes.zero(s, 0, end) ? "0" : s.substring(0, end);
    }

    private static String booleanText(String s) {
        return switch (s) {
            case "t", "true", "1", "TRUE", "True" -> "true";
            case "f", "false", "0", "FALSE", "False" -> "false";
            default -> null;
        };
    }

    /**
     * {@code YYYY-MM-DD[ T]HH:MM:SS[.f{1,9}]} with, for zoned values, {@code Z}, {@code +00}, {@code +00:00} or
     * nothing (zone-less engines store UTC) → {@code YYYY-MM-DDTHH:MM:SS.ffffff} (nine digits when there are
     * nanoseconds) + {@code Z} for zoned values; null for any other shape.
     */
    private static String dateTime(String s, boolean zoned) {
        if (!PlainShapes.dateTimeHead(s, 0, s.length())) {
            return null;
        }
        int end = zoned ? PlainShapes.beforeUtc(s, 0, s.length()) : s.length();
        StringBuilder b = new StringBuilder(zoned ? 27 : 26).append(s, 0, 10).append('T').append(s, 11, 19);
        if (!fraction(s, 19, end, b)) {
            return null;
        }
        return zoned ? b.append('Z').toString() : b.toString();
    }

    private static String time(String s) {
        if (s.length() < 8 || !PlainShapes.timePart(s, 0)) {
            return null;
        }
        StringBuilder b = new StringBuilder(15).append(s, 0, 8);
        return fraction(s, 8, s.length(), b) ? b.toString() : null;
    }

    /** Appends {@code .ffffff} (or nine digits) for an optional fraction {@code s[from, end)}; false on any other shape. */
    private static boolean fraction(String s, int from, int end, StringBuilder b) {
        if (!PlainShapes.fraction(s, from, end)) {
            return false;
        }
        int digits = from == end ? 0 : end - from - 1;
        b.append('.');
        if (PlainShapes.nanos(s, from, end)) {
            b.append(s, from + 1, end);
            b.append("000000000", 0, 9 - digits);
        } else {
            if (digits > 0) {
                b.append(s, from + 1, from + 1 + Math.min(digits, 6));
            }
            b.append("000000", 0, 6 - Math.min(digits, 6));
        }
        return true;
    }

    /** Normalises a value (native type or its text form) as {@code kind}. */
    public static String canonical(Object v, ValueKind kind) {
        if (v == null) {
            return NULL;
        }
        return switch (kind) {
            case INTEGER -> v instanceof Number n ? Long.toString(n.longValue()) : Long.toString(Long.parseLong(v.toString().trim()));
            case FLOAT -> v instanceof Number n ? Double.toString(n.doubleValue()) : Double.toString(Double.parseDouble(v.toString()));
            case DECIMAL -> decimal(v instanceof BigDecimal d ? d : new BigDecimal(v.toString().trim()));
            case BOOLEAN -> Boolean.toString(bool(v));
            case TIMESTAMPTZ -> TemporalText.instant(instant(v));
            case TIMESTAMP -> TemporalText.localDateTime(localDateTime(v));
            case DATE -> v instanceof LocalDate d ? d.toString() : v instanceof java.sql.Date d ? d.toLocalDate().toString() : LocalDate.parse(v.toString()).toString();
            case TIME -> TemporalText.localTime(v instanceof LocalTime t ? t : v instanceof java.sql.Time t ? t.toLocalTime() : LocalTime.parse(v.toString()));
            case BYTES -> HexFormat.of().formatHex(v instanceof byte[] b ? b : v.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            case TEXT -> v instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : v.toString();
        };
    }

    private static String decimal(BigDecimal d) {
        return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }

    private static boolean bool(Object v) {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n) {
            return n.longValue() != 0;
        }
        String s = v.toString().trim();
        return s.equalsIgnoreCase("true") || s.equals("1") || s.equalsIgnoreCase("t");
    }

    private static Instant instant(Object v) {
        if (v instanceof OffsetDateTime o) {
            return o.toInstant();
        }
        if (v instanceof Instant i) {
            return i;
        }
        if (v instanceof Timestamp t) {
            return t.toInstant();
        }
        if (v instanceof LocalDateTime t) {
            return t.toInstant(java.time.ZoneOffset.UTC);
        }
        String s = v.toString().trim().replace(' ', 'T');
        if (s.endsWith("Z")) {
            return Instant.parse(s);
        }
        java.util.regex.Matcher m = OFFSET.matcher(s);
        if (m.find()) {
            // PostgreSQL prints +00 or +05:30; ISO needs +00:00
            String off = m.group(1).length() == 3 ? m.group(1) + ":00" : m.group(1);
            return OffsetDateTime.parse(s.substring(0, m.start(1)) + off).toInstant();
        }
        return LocalDateTime.parse(s).toInstant(java.time.ZoneOffset.UTC); // zone-less engines store UTC
    }

    private static LocalDateTime localDateTime(Object v) {
        if (v instanceof LocalDateTime t) {
            return t;
        }
        if (v instanceof Timestamp t) {
            return t.toLocalDateTime();
        }
        return LocalDateTime.parse(v.toString().trim().replace(' ', 'T'));
    }
}
