package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeFloats;
import dev.tidemark.jdbc.types.TypeKeys;
import java.util.List;

/** Floating point: {@code REAL} for 32-bit, {@code DOUBLE PRECISION} for 64-bit ({@code NaN}, {@code Infinity} as Java spells them). */
final class FloatType implements NativeFloats {

    @Override
    public List<String> keys() {
        return TypeKeys.FLOATS;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return switch (type.connectType()) {
            case "float", "float32" -> "REAL";
            default -> "DOUBLE PRECISION";
        };
    }
}
