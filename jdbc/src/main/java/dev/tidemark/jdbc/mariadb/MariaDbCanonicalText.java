package dev.tidemark.jdbc.mariadb;

import dev.tidemark.jdbc.ChecksumSql;
import dev.tidemark.jdbc.ValueKind;

/**
 * MariaDB's SQL for the canonical text of one value, for checksums in SQL ({@link MariaDbChecksums#valueText}): the
 * same text as PostgreSQL's canonical text writes for the same value, and as reconcile's canonical values in Java.
 * Timestamps as {@code 2026-01-02T03:04:05.000007} ({@code Z} appended when compared as instants; the session is
 * UTC), {@code TIME} as {@code [-]HH:MM:SS.ffffff} over its whole range of ±838 hours; a value whose formatting would
 * give NULL (a zero date) falls back to its own text after a {@code ?}, so that it never reads as NULL. Stateless.
 */
final class MariaDbCanonicalText {
    private MariaDbCanonicalText() {
    }

    /** The SQL expression for the canonical text of {@code c} read as {@code kind}. */
    static String of(String c, ValueKind kind) {
        return switch (kind) {
            case INTEGER -> "CAST(" + c + " AS CHAR)";
            case DECIMAL -> "IF(LOCATE('.', CAST(" + c + " AS CHAR)) > 0, TRIM(TRAILING '.' FROM TRIM(TRAILING '0' FROM CAST(" + c
                    + " AS CHAR))), CAST(" + c + " AS CHAR))";
            case BOOLEAN -> ChecksumSql.booleanText(c, c + " <> 0");
            case TIMESTAMPTZ -> never(c, "CONCAT(DATE_FORMAT(" + c + ", '%Y-%m-%dT%H:%i:%s.%f'), 'Z')");
            case TIMESTAMP -> never(c, "DATE_FORMAT(" + c + ", '%Y-%m-%dT%H:%i:%s.%f')");
            case DATE -> never(c, "DATE_FORMAT(" + c + ", '%Y-%m-%d')");
            case TIME -> never(c, "TIME_FORMAT(" + c + ", '%H:%i:%s.%f')");
            case BYTES -> "LOWER(HEX(" + c + "))";
            case TEXT -> "CONVERT(" + c + " USING utf8mb4)";
            case FLOAT -> throw new IllegalArgumentException("no in-database text for floating point");
        };
    }

    /** {@code text}, or for a value whose {@code text} is NULL, {@code ?} and the value's own text. */
    private static String never(String c, String text) {
        return "IF(" + c + " IS NULL, NULL, COALESCE(" + text + ", CONCAT('?', CAST(" + c + " AS CHAR))))";
    }
}
