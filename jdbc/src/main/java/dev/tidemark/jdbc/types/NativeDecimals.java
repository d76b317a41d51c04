package dev.tidemark.jdbc.types;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** A family whose values are {@link BigDecimal}s, bound as they are; text in plain notation (never an exponent). */
public interface NativeDecimals extends TargetType {

    @Override
    default boolean holds(Object value) {
        return value instanceof BigDecimal;
    }

    @Override
    default void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        statement.setBigDecimal(index, (BigDecimal) value);
    }

    @Override
    default String text(Object value) {
        return ((BigDecimal) value).toPlainString();
    }

    @Override
    default Object decode(String text) {
        return new BigDecimal(text);
    }
}
