package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/**
 * JSON documents, carried as text: {@code JSON} for a source {@code json} column (it keeps its text: spacing, key
 * order, duplicate keys), else {@code JSONB}, which normalises it.
 */
final class JsonType implements TargetType {

    @Override
    public List<String> keys() {
        return List.of(TargetType.logical(ColumnType.JSON));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return type.sourceType().equals("JSON") ? "JSON" : "JSONB";
    }
}
