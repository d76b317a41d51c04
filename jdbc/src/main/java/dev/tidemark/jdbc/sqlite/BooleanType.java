package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.TargetType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/** Booleans: {@code BOOLEAN_INTEGER} (integer affinity), stored as {@code 1}/{@code 0}. */
final class BooleanType implements TargetType {

    @Override
    public List<String> keys() {
        return List.of(TargetType.connect("boolean"));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "BOOLEAN_INTEGER";
    }

    @Override
    public boolean holds(Object value) {
        return value instanceof Boolean;
    }

    @Override
    public void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        statement.setInt(index, (Boolean) value ? 1 : 0);
    }

    @Override
    public String text(Object value) {
        return (Boolean) value ? "1" : "0";
    }

    @Override
    public Object decode(String text) {
        return text.equals("1");
    }
}
