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
}
