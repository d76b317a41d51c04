package dev.tidemark.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Small JDBC reads the engine classes share. No state. */
final class Queries {
    private Queries() {
    }

    /** The first column of the first row of {@code sql} with one bound text parameter, or -1 when there is no row. */
    static long longOrMinusOne(Connection c, String sql, String parameter) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, parameter);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }
}
