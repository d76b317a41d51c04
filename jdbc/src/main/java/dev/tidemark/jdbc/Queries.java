package dev.tidemark.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Small JDBC reads the engine classes share. No state. */
public final class Queries {
    private Queries() {
    }

    /** The first column of the first row of {@code sql} with one bound text parameter, or -1 when there is no row. */
    public static long longOrMinusOne(Connection c, String sql, String parameter) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, parameter);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }

    /** Runs each of {@code sql} in order on one statement (session set-up: pragmas, session settings). */
    public static void execute(Connection c, String... sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String each : sql) {
                s.execute(each);
            }
        }
    }
}
