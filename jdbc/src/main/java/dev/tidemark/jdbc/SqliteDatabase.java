package dev.tidemark.jdbc;

import dev.tidemark.jdbc.sqlite.SqliteSource;
import dev.tidemark.jdbc.sqlite.SqliteTarget;

/**
 * SQLite, whose date-times, decimals and booleans are text or integers by type affinity: the registry's engine for
 * {@code jdbc:sqlite:} URLs, made of its roles in {@code dev.tidemark.jdbc.sqlite}. It is its own target
 * ({@link SqliteTarget}) and source ({@link SqliteSource}: rows stream as one text per row, reads run outside
 * transactions, no in-database checksums and no row estimate), which it extends. Stateless and thread-safe.
 */
public final class SqliteDatabase extends SqliteSource implements Database {
}
