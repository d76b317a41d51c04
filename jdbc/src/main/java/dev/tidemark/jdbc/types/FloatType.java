package dev.tidemark.jdbc.types;

import java.util.List;

/** Floating point of either width ({@link TypeKeys#FLOATS}), bound natively; {@code spelling} names the column type. */
public record FloatType(Ddl spelling) implements NativeFloats, SpelledType {

    @Override
    public List<String> keys() {
        return TypeKeys.FLOATS;
    }
}
