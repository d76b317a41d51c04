package dev.tidemark.jdbc.postgres;

import dev.tidemark.jdbc.ChecksumSql;
import dev.tidemark.jdbc.ValueKind;

/**
 * PostgreSQL's SQL for the canonical text of one value, for checksums in SQL ({@link PostgresChecksums#valueText}):
 * the same text as reconcile's canonical values in Java, lossless for every value PostgreSQL holds and never NULL for
 * a value. Integers and text as they print; decimals without trailing fraction zeros ({@code 12.50} → {@code 12.5},
 * {@code NaN} and {@code ±Infinity} as they print); booleans {@code true}/{@code false}; bytes as lower-case hex;
 * timestamps as ISO-8601 with six fraction digits ({@code 2026-01-02T03:04:05.000007}, {@code Z} appended for
 * instants, taken in UTC), dates as ISO-8601, both with ISO's signed years outside 1..9999 ({@code 44 BC} is
 * {@code -0043}, {@code 12345} is {@code +12345}) and {@code infinity}/{@code -infinity} as they print; times
 * {@code HH:MM:SS.ffffff}, {@code 24:00:00.000000} apart from midnight. Stateless.
 */
final class PostgresCanonicalText {
    private static final String TIME = "\"T\"HH24:MI:SS.US";

    private PostgresCanonicalText() {
    }

    /** The SQL expression for the canonical text of {@code c} read as {@code kind}; {@code zoned} if the column is timestamptz. */
    static String of(String c, ValueKind kind, boolean zoned, boolean booleanColumn) {
        return switch (kind) {
            case INTEGER, TEXT -> c + "::text";
            case DECIMAL -> "CASE WHEN strpos(" + c + "::text, '.') > 0 THEN rtrim(rtrim(" + c + "::text, '0'), '.') ELSE " + c + "::text END";
            case BOOLEAN -> ChecksumSql.booleanText(c, booleanColumn ? c : c + " <> 0");
            case TIMESTAMPTZ -> calendar(zoned ? "(" + c + " AT TIME ZONE 'UTC')" : c, "timestamp", TIME, "Z");
            case TIMESTAMP -> calendar(zoned ? "(" + c + " AT TIME ZONE 'UTC')" : c, "timestamp", TIME, "");
            case DATE -> calendar(c, "date", "", "");
            case TIME -> "CASE WHEN " + c + " = time '24:00' THEN '24:00:00.000000' ELSE to_char(date '2000-01-01' + " + c + ", 'HH24:MI:SS.US') END";
            case BYTES -> "encode(" + c + ", 'hex')";
            case FLOAT -> throw new IllegalArgumentException("no in-database text for floating point");
        };
    }

    /**
     * ISO-8601 text of a date or timestamp {@code v}: years 1..9999 (the common case, first) as four digits through
     * {@code to_char}; infinities as they print; other years from {@code extract} (dates past timestamp's range do not
     * go through {@code to_char}), later years with {@code +}, BC years as ISO's year {@code 1 - n} (1 BC is
     * {@code 0000}; PostgreSQL's earliest year, 4713 BC, has four digits).
     */
    private static String calendar(String v, String type, String time, String suffix) {
        String tail = (time.isEmpty() ? "" : " || to_char(" + v + ", '" + time + "')") + (suffix.isEmpty() ? "" : " || '" + suffix + "'");
        String year = "extract(year FROM " + v + ")::int";
        String isoYear = "CASE WHEN " + year + " < -1 THEN '-' || lpad((-" + year + " - 1)::text, 4, '0') WHEN " + year
                + " = -1 THEN '0000' ELSE '+' || " + year + "::text END";
        return "CASE WHEN " + v + " >= " + type + " '0001-01-01' AND " + v + " < " + type + " '10000-01-01' THEN to_char(" + v
                + ", 'YYYY-MM-DD')" + tail
                + " WHEN NOT isfinite(" + v + ") THEN " + v + "::text"
                + " ELSE " + isoYear + " || '-' || lpad(extract(month FROM " + v + ")::int::text, 2, '0') || '-' || lpad(extract(day FROM " + v
                + ")::int::text, 2, '0')" + tail + " END";
    }
}
