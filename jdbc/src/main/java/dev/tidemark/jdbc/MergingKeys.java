package dev.tidemark.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The one-line refusal of a pre-existing table's primary key column whose collation would merge distinct source
 * keys (an upsert would then overwrite one source row with another), and the catalog read that finds it; used by
 * each engine's {@link Dialect#mergingKeyCollation}. No state.
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

    /**
     * Runs the catalog query {@code sql} with {@code table} bound and returns the first refusal {@code refusalOf}
     * makes of a row (the query lists the key columns to check), or empty.
     */
    public static Optional<String> firstRefusal(Connection connection, String sql, String table, SourceSql.RowFunction<Optional<String>> refusalOf)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Optional<String> refusal = refusalOf.apply(rs);
                    if (refusal.isPresent()) {
                        return refusal;
                    }
                }
            }
        }
        return Optional.empty();
    }
}
