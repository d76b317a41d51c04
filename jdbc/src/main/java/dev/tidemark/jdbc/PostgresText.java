package dev.tidemark.jdbc;

import java.math.BigDecimal;
import java.util.HexFormat;

/**
 * Decoded event values in PostgreSQL's text input format, for elements of text arrays that the server casts to the
 * column's type (so the cast, not the client, decides what the text means). Exact: decimals in plain notation,
 * instants in ISO-8601 with their full fraction and {@code Z}, bytes as {@code \x} hex.
 */
final class PostgresText {
    private static final HexFormat HEX = HexFormat.of();

    private PostgresText() {
    }

    static String of(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof byte[] b) {
            return "\\x" + HEX.formatHex(b);
        }
        // Long, Integer, Double (NaN and Infinity are PostgreSQL's spellings too), Boolean, Instant, LocalDateTime,
        // LocalDate, LocalTime: their ISO toString is valid input for the matching type
        return value.toString();
    }
}
