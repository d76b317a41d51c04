package dev.tidemark.jdbc;

/**
 * Quoting of untrusted SQL identifiers (table and column names from events, configuration or catalogs), the one
 * place every Tidemark component quotes with: the identifier is wrapped in the engine's quote character and every
 * embedded quote character is doubled, so {@code a"b}, {@code x; DROP TABLE y} or {@code select} stay one name.
 */
public final class Identifiers {
    private Identifiers() {
    }

    /** Standard SQL quoting (PostgreSQL, SQLite, most engines): {@code a"b} → {@code "a""b"}. */
    public static String doubleQuoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** MariaDB/MySQL quoting: {@code a`b} → {@code `a``b`}. */
    public static String backticked(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }
}
