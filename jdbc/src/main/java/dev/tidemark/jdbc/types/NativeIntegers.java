package dev.tidemark.jdbc.types;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/** A family whose values are {@code long}s and {@code int}s, bound as they are; text in decimal digits. */
public interface NativeIntegers extends TargetType {

    @Override
    default boolean holds(Object value) {
        return value instanceof Long || value instanceof Integer;
    }

    @Override
    default void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (value instanceof Integer i) {
            statement.setInt(index, i);
        } else {
            statement.setLong(index, (Long) value);
        }
    }

    @Override
    default Object decode(String text) {
        return Long.parseLong(text);
    }
}
