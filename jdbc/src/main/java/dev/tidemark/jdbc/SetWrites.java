package dev.tidemark.jdbc;

import java.util.List;

/**
 * The capability of writing a whole batch in one statement: every value of a column travels as one element of a
 * bound text array, cast on the server to the column's own type, never cutting it (a length-limited type is cast
 * without its length; the insert's assignment checks it). Offered by {@link Dialect#setWrites()} where the
 * engine has it (PostgreSQL); stateless and thread-safe.
 */
public interface SetWrites {

    /**
     * A delete of many rows by key in one statement. It binds one text array per key column (cast to
     * {@code keyTypes}, the key columns' types as {@link #columnTypesQuery()} names them) and one text array of
     * positions; a row is deleted unless its stored position is newer than the one deleting it (a null position
     * deletes unconditionally).
     */
    String deleteMany(String table, List<String> keyColumns, List<String> keyTypes, String positionColumn);

    /**
     * {@link Dialect#upsert} of many rows in one statement. It binds one text array per column, cast on the server
     * to {@code types} (the columns' types as {@link #columnTypesQuery()} names them).
     */
    String upsertMany(String table, List<String> columns, List<String> types, List<String> keyColumns,
                      List<String> updateColumns, String positionColumn);

    /** A value as an element of the text arrays {@link #upsertMany} and {@link #deleteMany} bind; null stays null. */
    String arrayElement(Object value);

    /**
     * Whether {@code element} (as {@link #arrayElement} renders it) fits a column of {@code type} whole. The casts
     * of {@link #upsertMany} never cut a value; the sink checks this before it writes so that a value too long for
     * a pre-existing column is refused as a row naming table, column and key. True by default.
     */
    default boolean fits(String element, String type) {
        return true;
    }

    /**
     * A query with one bound parameter (the quoted table name) returning each column's name and the engine's name
     * of its type, for the casts of {@link #upsertMany} and {@link #deleteMany}.
     */
    String columnTypesQuery();
}
