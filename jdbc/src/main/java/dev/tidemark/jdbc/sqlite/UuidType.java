package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/** UUIDs as text: {@code UUID_TEXT}. */
final class UuidType implements TargetType {

    @Override
    public List<String> keys() {
        return List.of(TargetType.logical(ColumnType.UUID));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "UUID_TEXT";
    }
}
