package dev.tidemark.jdbc;

import java.util.List;

/**
 * The capability of computing segment checksums inside the database ({@link Database#checksumSql()}): each side
 * builds the same canonical row text in SQL — every value as {@code <length>:<text>}, NULL as {@code ~}, so values
 * cannot run together — and sums a 60-bit hash of it per segment. Stateless and thread-safe.
 */
public interface ChecksumSql {

    /**
     * The segment number of a row: {@code (key - lo) / width} in integer arithmetic, by default with {@code /}, which
     * divides integers as integers (PostgreSQL, SQLite).
     */
    default String bucket(String keySql, long lo, long width) {
        return "(" + keySql + " - (" + lo + ")) / " + width;
    }

    /**
     * The canonical text of one value in SQL: the same text as reconcile's canonical values in Java, lossless for
     * every value the engine can hold, NULL for NULL and never NULL for a value ({@code infinity}, a BC date, and
     * {@code 24:00} included); {@code column} is the column on this side.
     *
     * @throws IllegalArgumentException for floating point, whose text engines print differently
     */
    String valueText(String columnSql, ValueKind kind, SourceColumn column);

    /**
     * The sum over the group's rows of the hash of the row text made of {@code valueTexts} (from {@link #valueText}),
     * given the engine on the other side: engines hash the same way unless both sides can use a cheaper function.
     */
    String sumOfRowHashes(List<String> valueTexts, Database otherSide);

    /** {@code 'true'}/{@code 'false'} for a boolean column (NULL for NULL) given the SQL condition that is true for true. */
    static String booleanText(String columnSql, String truth) {
        return "CASE WHEN " + columnSql + " IS NULL THEN NULL WHEN " + truth + " THEN 'true' ELSE 'false' END";
    }
}
