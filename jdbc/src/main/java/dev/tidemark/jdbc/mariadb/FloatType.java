package dev.tidemark.jdbc.mariadb;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeFloats;
import dev.tidemark.jdbc.types.TypeKeys;
import java.util.List;

/** Floating point: {@code FLOAT} for 32-bit, {@code DOUBLE} for 64-bit. */
final class FloatType implements NativeFloats {

    @Override
    public List<String> keys() {
        return TypeKeys.FLOATS;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return switch (type.connectType()) {
            case "float", "float32" -> "FLOAT";
            default -> "DOUBLE";
        };
    }
}
