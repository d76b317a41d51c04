package dev.tidemark.connector.debezium;

import java.util.Locale;

/**
 * A PostgreSQL WAL position ({@code pg_lsn}), ordered as the server orders it. Printed as PostgreSQL prints it:
 * {@code 16/B374D848} (high and low 32 bits in hexadecimal).
 *
 * @param value the position as an unsigned 64-bit number (PostgreSQL never uses the sign bit in practice)
 */
public record Lsn(long value) implements Comparable<Lsn> {

    /** Parses {@code X/Y} as printed by PostgreSQL. */
    public static Lsn parse(String text) {
        int slash = text.indexOf('/');
        if (slash <= 0 || slash == text.length() - 1) {
            throw new IllegalArgumentException("not a WAL position (expected X/Y in hexadecimal): '" + text + "'");
        }
        long hi = Long.parseLong(text.substring(0, slash), 16);
        long lo = Long.parseLong(text.substring(slash + 1), 16);
        return new Lsn((hi << 32) | lo);
    }

    public boolean isAfter(Lsn other) {
        return Long.compareUnsigned(value, other.value) > 0;
    }

    @Override
    public int compareTo(Lsn other) {
        return Long.compareUnsigned(value, other.value);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%X/%X", value >>> 32, value & 0xFFFFFFFFL);
    }
}
