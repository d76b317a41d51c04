package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/** Text, and the fallback for every column and value no other family claims: {@code TEXT}, values as their text. */
final class TextType implements TargetType {

    @Override
    public List<String> keys() {
        return List.of(TargetType.connect("string"));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "TEXT";
    }

    @Override
    public boolean holds(Object value) {
        return value instanceof String;
    }
}
