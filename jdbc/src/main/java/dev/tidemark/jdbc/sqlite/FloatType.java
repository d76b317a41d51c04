package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeFloats;
import dev.tidemark.jdbc.types.TypeKeys;
import java.util.List;

/** Floating point of either width: {@code REAL}. */
final class FloatType implements NativeFloats {

    @Override
    public List<String> keys() {
        return TypeKeys.FLOATS;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "REAL";
    }
}
