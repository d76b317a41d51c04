package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeIntegers;
import dev.tidemark.jdbc.types.TypeKeys;
import java.util.List;

/** Integers of every width: {@code INTEGER} (SQLite stores up to 64 bits). */
final class IntegerType implements NativeIntegers {

    @Override
    public List<String> keys() {
        return TypeKeys.INTEGERS;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "INTEGER";
    }
}
