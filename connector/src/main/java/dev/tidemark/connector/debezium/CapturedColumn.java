package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import java.util.Objects;

/**
 * One column of a captured table as PostgreSQL's catalog describes it.
 *
 * @param table      the captured table
 * @param column     the column's name
 * @param declared   the type as {@code format_type} spells it ({@code character(5)}, {@code integer[]}, {@code mood})
 * @param typeName   the type's internal name ({@code pg_type.typname}: {@code bpchar}, {@code _int4}, {@code mood});
 *                   for a domain, its base type's
 * @param kind       {@code pg_type.typtype} of that type: {@code b} base, {@code e} enum, {@code r} range,
 *                   {@code c} composite, {@code m} multirange, {@code p} pseudo
 * @param category   {@code pg_type.typcategory}: {@code A} for arrays
 * @param domain     the domain's name when the column's type is a domain, else null
 */
public record CapturedColumn(TableId table, String column, String declared, String typeName, char kind, char category,
                             String domain) {
    public CapturedColumn {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(declared, "declared");
        Objects.requireNonNull(typeName, "typeName");
    }
}
