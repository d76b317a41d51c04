package dev.tidemark.jdbc.types;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/** A family whose values are {@link Boolean}s, bound as they are; text {@code true}/{@code false}. */
public interface NativeBooleans extends TargetType {

    @Override
    default boolean holds(Object value) {
        return value instanceof Boolean;
    }

    @Override
    default void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        statement.setBoolean(index, (Boolean) value);
    }

    @Override
    default Object decode(String text) {
        return Boolean.parseBoolean(text);
    }
}
