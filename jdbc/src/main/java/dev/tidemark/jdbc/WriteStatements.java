package dev.tidemark.jdbc;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The one builder of the sink's write statements, for every target engine: an {@code INSERT} whose rows come from a
 * {@code VALUES} list or from {@code unnest} of bound text arrays, followed by the engine's conflict clause
 * ({@code ON CONFLICT … DO UPDATE … WHERE}, or {@code ON DUPLICATE KEY UPDATE} with each assignment guarded), and the
 * {@code DELETE … USING unnest(…)} of many keys. Every shape keeps a stored row whose position is newer than the
 * incoming one ({@link #notNewer}). Identifiers go through the engine's {@code quote}; values are always bound.
 * Stateless and thread-safe.
 */
public final class WriteStatements {
    private final UnaryOperator<String> quote;

    public WriteStatements(UnaryOperator<String> quote) {
        this.quote = quote;
    }

    /**
     * Example: {@code INSERT INTO "orders" ("id", "amount", "__tidemark_position") VALUES (?, ?, ?)
     * ON CONFLICT ("id") DO UPDATE SET "amount" = excluded."amount", "__tidemark_position" = excluded."__tidemark_position"
     * WHERE "orders"."__tidemark_position" IS NULL OR excluded."__tidemark_position" IS NULL
     * OR "orders"."__tidemark_position" <= excluded."__tidemark_position"}: an older event (smaller position) leaves
     * the newer row untouched, so a replay never moves a row backwards. {@code DO NOTHING} without update columns,
     * no {@code WHERE} without a position column.
     */
    public String onConflictUpsert(String table, List<String> columns, String rows, List<String> keyColumns,
                                   List<String> updateColumns, String positionColumn) {
        String t = quote.apply(table);
        String insert = insert(table, columns, rows) + " ON CONFLICT (" + list(keyColumns) + ") DO ";
        if (updateColumns.isEmpty()) {
            return insert + "NOTHING";
        }
        String sets = updateColumns.stream().map(c -> quote.apply(c) + " = excluded." + quote.apply(c)).collect(Collectors.joining(", "));
        if (positionColumn == null) {
            return insert + "UPDATE SET " + sets;
        }
        String p = quote.apply(positionColumn);
        return insert + "UPDATE SET " + sets + " WHERE " + notNewer(t + "." + p, "excluded." + p, "");
    }

    /**
     * Example: {@code INSERT INTO `orders` (`id`, `amount`, `__tidemark_position`) VALUES (?, ?, ?)
     * ON DUPLICATE KEY UPDATE `amount` = IF(g, VALUES(`amount`), `amount`), `__tidemark_position` = IF(g, …)}
     * with {@code g = (`__tidemark_position` IS NULL OR VALUES(`__tidemark_position`) IS NULL OR
     * `__tidemark_position` <= VALUES(`__tidemark_position`))}: the clause has no {@code WHERE}, so each assignment is
     * guarded, and the position column is assigned last because later assignments see earlier results.
     * {@code INSERT IGNORE} without update columns.
     */
    public String onDuplicateKeyUpsert(String table, List<String> columns, List<String> updateColumns, String positionColumn) {
        String insert = insert(table, columns, values(columns.size()));
        if (updateColumns.isEmpty()) {
            return "INSERT IGNORE" + insert.substring("INSERT".length());
        }
        List<String> ordered = new java.util.ArrayList<>(updateColumns);
        if (positionColumn != null && ordered.remove(positionColumn)) {
            ordered.add(positionColumn);
        }
        String p = positionColumn == null ? null : quote.apply(positionColumn);
        String guard = p == null ? null : "(" + notNewer(p, "VALUES(" + p + ")", "") + ")";
        return insert + " ON DUPLICATE KEY UPDATE " + ordered.stream().map(quote).map(c -> guard == null
                ? c + " = VALUES(" + c + ")" : c + " = IF(" + guard + ", VALUES(" + c + "), " + c + ")").collect(Collectors.joining(", "));
    }

    /**
     * Example: {@code SELECT CAST("__u"."v1" AS bigint), CAST("__u"."v2" AS text) FROM unnest(CAST(? AS text[]),
     * CAST(? AS text[])) AS "__u"("v1", "v2")}: the rows of a batch from one bound text array per column, each cast on
     * the server to {@code types}.
     */
    public String unnestRows(List<String> types) {
        String select = IntStream.range(0, types.size())
                .mapToObj(i -> "CAST(\"__u\".\"v" + (i + 1) + "\" AS " + types.get(i) + ")").collect(Collectors.joining(", "));
        String names = IntStream.range(0, types.size()).mapToObj(i -> "\"v" + (i + 1) + "\"").collect(Collectors.joining(", "));
        return "SELECT " + select + " FROM unnest(" + textArrays(types.size()) + ") AS \"__u\"(" + names + ")";
    }

    /**
     * Example: {@code DELETE FROM "orders" AS "__t" USING unnest(CAST(? AS text[]), CAST(? AS text[])) AS "__d"("k1", "p")
     * WHERE "__t"."id" = CAST("__d"."k1" AS bigint) AND ("__t"."__tidemark_position" IS NULL OR "__d"."p" IS NULL
     * OR "__t"."__tidemark_position" <= "__d"."p" COLLATE "C")}: one statement (one index probe per key) for many
     * keys, one bound text array per key column (cast to {@code keyTypes}) and one of positions.
     */
    public String unnestDelete(String table, List<String> keyColumns, List<String> keyTypes, String positionColumn) {
        StringBuilder names = new StringBuilder();
        StringBuilder where = new StringBuilder();
        for (int i = 0; i < keyColumns.size(); i++) {
            names.append("\"k").append(i + 1).append("\", ");
            where.append(i == 0 ? "" : " AND ").append("\"__t\".").append(quote.apply(keyColumns.get(i)))
                    .append(" = CAST(\"__d\".\"k").append(i + 1).append("\" AS ").append(keyTypes.get(i)).append(')');
        }
        String p = "\"__t\"." + quote.apply(positionColumn);
        return "DELETE FROM " + quote.apply(table) + " AS \"__t\" USING unnest(" + textArrays(keyColumns.size() + 1) + ") AS \"__d\"("
                + names + "\"p\") WHERE " + where + " AND (" + notNewer(p, "\"__d\".\"p\"", " COLLATE \"C\"") + ")";
    }

    /** {@code VALUES (?, …)} for one row of {@code count} bound values. */
    public static String values(int count) {
        return "VALUES (" + String.join(", ", java.util.Collections.nCopies(count, "?")) + ")";
    }

    /**
     * {@code stored IS NULL OR incoming IS NULL OR stored <= incoming}: the write goes ahead unless the stored position
     * is newer; a null on either side lets it through. {@code collation} follows the compared incoming value.
     */
    static String notNewer(String stored, String incoming, String collation) {
        return stored + " IS NULL OR " + incoming + " IS NULL OR " + stored + " <= " + incoming + collation;
    }

    private String insert(String table, List<String> columns, String rows) {
        return "INSERT INTO " + quote.apply(table) + " (" + list(columns) + ") " + rows;
    }

    private String list(List<String> identifiers) {
        return identifiers.stream().map(quote).collect(Collectors.joining(", "));
    }

    private static String textArrays(int count) {
        return String.join(", ", java.util.Collections.nCopies(count, "CAST(? AS text[])"));
    }
}
