package dev.tidemark.jdbc.types;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/** A family whose values are {@code double}s, bound as they are ({@code NaN}, {@code Infinity} as Java spells them). */
public interface NativeFloats extends TargetType {

    @Override
    default boolean holds(Object value) {
        return value instanceof Double;
    }

    @Override
    default void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        statement.setDouble(index, (Double) value);
    }

    @Override
    default Object decode(String text) {
        return Double.parseDouble(text);
    }
}
