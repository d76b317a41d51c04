package dev.tidemark.jdbc.types;

import dev.tidemark.event.ColumnType;

/** How one engine spells a family's column type: the DDL for {@code type}, {@code key} when it is part of the primary key. */
@FunctionalInterface
public interface Ddl {

    String of(ColumnType type, boolean key);

    /** The same column type whatever the column. */
    static Ddl always(String name) {
        return (type, key) -> name;
    }

    /** Integers by Connect width: {@code small} for 8- and 16-bit, {@code int32}, {@code int64}. */
    static Ddl integers(String small, String int32, String int64) {
        return (type, key) -> switch (type.connectType()) {
            case "int32" -> int32;
            case "int64" -> int64;
            default -> small;
        };
    }

    /** Floating point by Connect width: {@code float32} for 32-bit, {@code float64} for 64-bit. */
    static Ddl floats(String float32, String float64) {
        return (type, key) -> switch (type.connectType()) {
            case "float", "float32" -> float32;
            default -> float64;
        };
    }
}
