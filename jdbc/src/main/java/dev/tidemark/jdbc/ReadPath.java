package dev.tidemark.jdbc;

/** How many rows are best streamed out of an engine (see {@link Database#readPath()}). */
public enum ReadPath {
    /** {@code COPY (SELECT …) TO STDOUT} in text format (PostgreSQL): the cheapest way to get every row out. */
    COPY_TEXT,
    /** One concatenated text per row, or per chunk of rows (SQLite): one driver call instead of one per column. */
    ROW_TEXT,
    /** A plain JDBC result set, streamed column by column. */
    RESULT_SET
}
