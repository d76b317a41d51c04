package dev.tidemark.jdbc;



/**
 * What differs between the databases reconcile reads: quoting, the order-by expression that sorts a key column the
 * way Java compares its canonical text, the soft-delete filter, and whether segment checksums can be computed
 * inside the database. Identifiers are untrusted and always quoted with embedded quotes doubled.
 */
public enum Engine {
    POSTGRESQL, MARIADB, SQLITE, OTHER;

    public static Engine forUrl(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            return POSTGRESQL;
        }
        if (jdbcUrl.startsWith("jdbc:mariadb:") || jdbcUrl.startsWith("jdbc:mysql:")) {
            return MARIADB;
        }
        if (jdbcUrl.startsWith("jdbc:sqlite:")) {
            return SQLITE;
        }
        return OTHER;
    }

    /** The watermark metadata reader for this engine (column kinds, primary key, event values). */
    public SourceSql sourceSql() {
        return switch (this) {
            case POSTGRESQL -> new SourceSql.Postgres();
            case MARIADB -> new SourceSql.MariaDb();
            case SQLITE -> new SourceSql.Sqlite();
            case OTHER -> new SourceSql.Generic();
        };
    }

    public String quote(String identifier) {
        return this == MARIADB ? Identifiers.backticked(identifier) : Identifiers.doubleQuoted(identifier);
    }

    /** Whether segment checksums can be computed by SQL inside the database. */
    public boolean checksumsInDatabase() {
        return this == POSTGRESQL || this == MARIADB;
    }

    /**
     * The ORDER BY term for a key column so that the database sorts rows the way reconcile's KeyOrder compares canonical
     * text: byte (code point) order for text on every engine, never the locale's collation. Numbers and date-times
     * sort natively.
     */
    public String orderTerm(String quotedColumn, ValueKind kind) {
        if (kind == ValueKind.DECIMAL && this == SQLITE) {
            return "CAST(" + quotedColumn + " AS NUMERIC)"; // decimals kept as text must sort as numbers
        }
        if (kind != ValueKind.TEXT) {
            return quotedColumn;
        }
        return switch (this) {
            case POSTGRESQL -> "CAST(" + quotedColumn + " AS text) COLLATE \"C\"";
            case MARIADB -> "CAST(CONVERT(" + quotedColumn + " USING utf8mb4) AS BINARY)";
            case SQLITE -> quotedColumn + " COLLATE BINARY";
            case OTHER -> quotedColumn;
        };
    }

    /** {@code SELECT} of the position a report holds at: the WAL position on PostgreSQL, none elsewhere. */
    public String positionQuery() {
        return this == POSTGRESQL ? "SELECT pg_current_wal_lsn()::text" : null;
    }
}
