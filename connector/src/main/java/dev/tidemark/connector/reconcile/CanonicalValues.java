package dev.tidemark.connector.reconcile;

import dev.tidemark.sink.jdbc.TemporalText;
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
    private static final java.util.regex.Pattern OFFSET = java.util.regex.Pattern.compile("T.*([+-]\\d\\d(?::?\\d\\d)?)$");

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
