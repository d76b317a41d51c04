package dev.tidemark.event;

import java.util.Objects;

/**
 * A source table: schema (may be empty for engines without schemas) and table name, exactly as the source spells them.
 * Identifiers are untrusted input; they are only ever used quoted.
 */
public record TableId(String schema, String table) {
    public TableId {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        if (table.isEmpty()) {
            throw new IllegalArgumentException("table name must not be empty");
        }
    }

    /** Parses {@code schema.table} or {@code table}; the first dot separates schema from table. */
    public static TableId parse(String qualified) {
        int dot = qualified.indexOf('.');
        return dot < 0 ? new TableId("", qualified) : new TableId(qualified.substring(0, dot), qualified.substring(dot + 1));
    }

    @Override
    public String toString() {
        return schema.isEmpty() ? table : schema + "." + table;
    }
}
