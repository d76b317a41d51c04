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
final class CanonicalValues {
    static final String NULL = "\u0000NULL";

    private CanonicalValues() {
    }

    /** Reads column {@code i} of a source row. */
    static String fromSource(ResultSet rs, int i, ValueKind kind) throws SQLException {
        Object v = switch (kind) {
            case TIMESTAMPTZ -> rs.getObject(i, OffsetDateTime.class);
            case TIMESTAMP -> rs.getObject(i, LocalDateTime.class);
            case DATE -> rs.getObject(i, LocalDate.class);
            case TIME -> rs.getObject(i, LocalTime.class);
            case BYTES -> rs.getBytes(i);
            case DECIMAL -> rs.getBigDecimal(i);
            default -> rs.getObject(i);
        };
        return canonical(v, kind);
    }

    /** Normalises a value read from any engine (native type or its text form) as {@code kind}. */
    static String canonical(Object v, ValueKind kind) {
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
        String s = v.toString().trim().replace(' ', 'T');
        return s.endsWith("Z") ? Instant.parse(s) : OffsetDateTime.parse(s).toInstant();
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
