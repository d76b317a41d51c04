package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeIntegers;
import dev.tidemark.jdbc.types.TypeKeys;
import java.util.List;

/** Integers: {@code SMALLINT} for 8- and 16-bit, {@code INTEGER}, {@code BIGINT}. */
final class IntegerType implements NativeIntegers {

    @Override
    public List<String> keys() {
        return TypeKeys.INTEGERS;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return switch (type.connectType()) {
            case "int32" -> "INTEGER";
            case "int64" -> "BIGINT";
            default -> "SMALLINT";
        };
    }
}
