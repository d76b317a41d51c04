package dev.tidemark.jdbc;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.function.Function;

/** Binding of decoded event values ({@link dev.tidemark.event.ChangeEvent}'s Java types), shared by the dialects. */
final class Binding {
    private Binding() {
    }

    /** Binds the types every engine takes as they are; false when {@code value} needs the dialect's own mapping. */
    static boolean bindPortable(PreparedStatement ps, int index, Object value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.NULL);
        } else if (value instanceof Long l) {
            ps.setLong(index, l);
        } else if (value instanceof Integer i) {
            ps.setInt(index, i);
        } else if (value instanceof Double d) {
            ps.setDouble(index, d);
        } else if (value instanceof byte[] bytes) {
            ps.setBytes(index, bytes);
        } else if (value instanceof String s) {
            ps.setString(index, s);
        } else {
            return false;
        }
        return true;
    }

    /**
     * Binds into an engine with native exact types (PostgreSQL, MariaDB): decimals, booleans and local temporal values
     * as they are; an {@link Instant} as whatever {@code instantAs} makes of it.
     */
    static void bindNative(PreparedStatement ps, int index, Object value, Function<Instant, Object> instantAs) throws SQLException {
        if (bindPortable(ps, index, value)) {
            return;
        }
        if (value instanceof Boolean b) {
            ps.setBoolean(index, b);
        } else if (value instanceof BigDecimal d) {
            ps.setBigDecimal(index, d);
        } else if (value instanceof Instant i) {
            ps.setObject(index, instantAs.apply(i));
        } else if (value instanceof LocalDateTime || value instanceof LocalDate || value instanceof LocalTime) {
            ps.setObject(index, value);
        } else {
            ps.setString(index, value.toString());
        }
    }
}
