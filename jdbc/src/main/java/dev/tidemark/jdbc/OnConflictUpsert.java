package dev.tidemark.jdbc;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/** The {@code INSERT … ON CONFLICT … DO UPDATE … WHERE} shape shared by SQLite and PostgreSQL. */
final class OnConflictUpsert {
    private OnConflictUpsert() {
    }

    /**
     * Example: {@code INSERT INTO "orders" ("id", "amount", "__tidemark_position") VALUES (?, ?, ?)
     * ON CONFLICT ("id") DO UPDATE SET "amount" = excluded."amount", "__tidemark_position" = excluded."__tidemark_position"
     * WHERE "orders"."__tidemark_position" IS NULL OR excluded."__tidemark_position" IS NULL
     * OR "orders"."__tidemark_position" <= excluded."__tidemark_position"}: an older event (smaller position) leaves
     * the newer row untouched, so a replay never moves a row backwards.
     */
    static String sql(UnaryOperator<String> quote, String table, List<String> columns, List<String> keyColumns,
                      List<String> updateColumns, String positionColumn) {
        String params = columns.stream().map(c -> "?").collect(Collectors.joining(", "));
        return sql(quote, table, columns, "VALUES (" + params + ")", keyColumns, updateColumns, positionColumn);
    }

    /** The same upsert with the rows coming from {@code source} (a {@code VALUES} list or a {@code SELECT}). */
    static String sql(UnaryOperator<String> quote, String table, List<String> columns, String source, List<String> keyColumns,
                      List<String> updateColumns, String positionColumn) {
        String cols = columns.stream().map(quote).collect(Collectors.joining(", "));
        String keys = keyColumns.stream().map(quote).collect(Collectors.joining(", "));
        String t = quote.apply(table);
        String sets = updateColumns.stream().map(c -> quote.apply(c) + " = excluded." + quote.apply(c)).collect(Collectors.joining(", "));
        String insert = "INSERT INTO " + t + " (" + cols + ") " + source + " ON CONFLICT (" + keys + ") DO ";
        if (sets.isEmpty()) {
            return insert + "NOTHING";
        }
        if (positionColumn == null) {
            return insert + "UPDATE SET " + sets;
        }
        String p = quote.apply(positionColumn);
        return insert + "UPDATE SET " + sets + " WHERE " + t + "." + p + " IS NULL OR excluded." + p + " IS NULL OR "
                + t + "." + p + " <= excluded." + p;
    }
}
