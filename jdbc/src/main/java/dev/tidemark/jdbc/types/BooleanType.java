package dev.tidemark.jdbc.types;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Booleans: bound natively with text {@code true}/{@code false}, or, where {@code asInteger} (an engine without a
 * boolean type), bound and written as {@code 1}/{@code 0}.
 */
public record BooleanType(Ddl spelling, boolean asInteger) implements NativeBooleans, SpelledType {

    @Override
    public List<String> keys() {
        return List.of(TargetType.connect("boolean"));
    }

    @Override
    public void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (asInteger) {
            statement.setInt(index, (Boolean) value ? 1 : 0);
        } else {
            NativeBooleans.super.bind(statement, index, value);
        }
    }

    @Override
    public String text(Object value) {
        return asInteger ? ((Boolean) value ? "1" : "0") : value.toString();
    }

    @Override
    public Object decode(String text) {
        return asInteger ? text.equals("1") : NativeBooleans.super.decode(text);
    }
}
