package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/** UUIDs, carried as text: {@code UUID}. */
final class UuidType implements TargetType {

    @Override
    public List<String> keys() {
        return List.of(TargetType.logical(ColumnType.UUID));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "UUID";
    }
}
