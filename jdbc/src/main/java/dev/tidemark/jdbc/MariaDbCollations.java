package dev.tidemark.jdbc;

import java.util.Locale;
import java.util.Optional;

/**
 * Which MariaDB collations keep distinct keys apart, and the refusal of a pre-existing key column whose collation
 * would merge them. Pure: no database.
 *
 * <p>Only a byte-exact comparison keeps every distinct source key a distinct row: {@code binary}, or a
 * {@code *_nopad_bin} collation. Anything else merges keys: {@code _ci} ({@code 'abc'} = {@code 'ABC'}), {@code _ai}
 * and the general/unicode collations ({@code 'é'} = {@code 'e'}), and every PAD SPACE collation, {@code utf8mb4_bin}
 * included ({@code 'a'} = {@code 'a '}); {@code ON DUPLICATE KEY UPDATE} would then overwrite one source row with
 * another.
 */
public final class MariaDbCollations {
    /** The collation Tidemark gives every text column it creates. */
    public static final String BYTE_EXACT = "utf8mb4_nopad_bin";

    private MariaDbCollations() {
    }

    /** Whether {@code collation} compares text byte for byte, trailing spaces included; null (not text) is. */
    public static boolean byteExact(String collation) {
        if (collation == null) {
            return true;
        }
        String c = collation.toLowerCase(Locale.ROOT);
        return c.equals("binary") || c.endsWith("_nopad_bin");
    }

    /**
     * The one-line refusal of a pre-existing table's primary key column whose collation would merge distinct keys,
     * with the statement that fixes it; empty when the collation is byte-exact.
     *
     * @param columnType the column's full type as {@code information_schema.columns.column_type} names it
     */
    public static Optional<String> refusal(String table, String column, String collation, String columnType) {
        if (byteExact(collation)) {
            return Optional.empty();
        }
        String fix = "ALTER TABLE " + Identifiers.backticked(table) + " MODIFY " + Identifiers.backticked(column) + " "
                + columnType.toUpperCase(Locale.ROOT) + " CHARACTER SET utf8mb4 COLLATE " + BYTE_EXACT + " NOT NULL";
        return Optional.of(MergingKeys.refusal(table, column, collation,
                "compares keys that differ in case, accents or trailing spaces as equal", "run `" + fix + "` (byte-exact)"));
    }
}
