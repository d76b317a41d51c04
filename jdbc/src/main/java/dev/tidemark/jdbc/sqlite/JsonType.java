package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/** JSON documents as text: {@code JSON_TEXT}. */
final class JsonType implements TargetType {

    @Override
    public List<String> keys() {
        return List.of(TargetType.logical(ColumnType.JSON));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "JSON_TEXT";
    }
}
