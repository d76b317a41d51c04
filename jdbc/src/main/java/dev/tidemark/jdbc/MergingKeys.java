package dev.tidemark.jdbc;

/**
 * The one-line refusal of a pre-existing table's primary key column whose collation would merge distinct source
 * keys (an upsert would then overwrite one source row with another). Pure; used by each engine's
 * {@link Dialect#mergingKeyCollation}.
 */
public final class MergingKeys {
    private MergingKeys() {
    }

    /**
     * @param why what the collation does wrong, e.g. {@code compares keys that differ in case as equal}
     * @param fix what makes the column byte-exact, e.g. {@code run `ALTER TABLE …` (byte-exact)}
     */
    public static String refusal(String table, String column, String collation, String why, String fix) {
        return "table " + table + " column " + column + ": primary key column has collation " + collation + ", which " + why
                + ", so distinct source rows would merge into one; the sink refuses to write it: " + fix
                + ", then restart the sink; nothing was written";
    }
}
