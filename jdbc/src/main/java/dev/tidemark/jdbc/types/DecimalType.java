package dev.tidemark.jdbc.types;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Exact decimals ({@link TypeKeys#DECIMALS}), text in plain notation; bound as {@link java.math.BigDecimal}, or as
 * that text where {@code boundAsText} (an engine whose numeric affinity would round through a double).
 */
public record DecimalType(Ddl spelling, boolean boundAsText) implements NativeDecimals, SpelledType {

    @Override
    public List<String> keys() {
        return TypeKeys.DECIMALS;
    }

    @Override
    public void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (boundAsText) {
            statement.setString(index, text(value));
        } else {
            NativeDecimals.super.bind(statement, index, value);
        }
    }
}
