package dev.tidemark.event;

import java.util.Objects;

/** One column of a row as the event schema declares it. */
public record Column(String name, ColumnType type, boolean optional) {
    public Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }
}
