package dev.tidemark.jdbc.types;

import java.util.List;

/** Integers of every width ({@link TypeKeys#INTEGERS}), bound natively; {@code spelling} names the column type per width. */
public record IntegerType(Ddl spelling) implements NativeIntegers, SpelledType {

    @Override
    public List<String> keys() {
        return TypeKeys.INTEGERS;
    }
}
