package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeBooleans;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/** Booleans: {@code BOOLEAN}. */
final class BooleanType implements NativeBooleans {

    @Override
    public List<String> keys() {
        return List.of(TargetType.connect("boolean"));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "BOOLEAN";
    }
}
