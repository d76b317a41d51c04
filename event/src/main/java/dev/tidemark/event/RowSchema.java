package dev.tidemark.event;

import java.util.List;
import java.util.Optional;

/**
 * The columns of a table as one event declares them, in source order, and which of them form the primary key.
 * Two events of the same table with equal schemas share the same prepared statements in the sink.
 */
public record RowSchema(List<Column> columns, List<String> keyColumns) {
    public RowSchema {
        columns = List.copyOf(columns);
        keyColumns = List.copyOf(keyColumns);
        for (String k : keyColumns) {
            if (columns.stream().noneMatch(c -> c.name().equals(k))) {
                throw new IllegalArgumentException("key column " + k + " is not among the row's columns");
            }
        }
    }

    public Optional<Column> column(String name) {
        return columns.stream().filter(c -> c.name().equals(name)).findFirst();
    }
}
