package dev.tidemark.connector.debezium;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs one read of PostgreSQL's catalog with bound parameters ({@link String} or {@link Long}, in order) and maps its
 * rows. Reads only; no state.
 */
final class CatalogRows {
    private CatalogRows() {
    }

    /** Maps the current row of a result set. */
    @FunctionalInterface
    interface Row<T> {
        T map(ResultSet rs) throws SQLException;
    }

    /** Every row of {@code sql}, mapped, in the order the query returns them. */
    static <T> List<T> list(Connection c, String sql, Row<T> row, Object... parameters) throws SQLException {
        List<T> out = new ArrayList<>();
        try (PreparedStatement ps = prepare(c, sql, parameters); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(row.map(rs));
            }
        }
        return out;
    }

    /** The first row of {@code sql}, mapped, or empty when it returns none. */
    static <T> Optional<T> first(Connection c, String sql, Row<T> row, Object... parameters) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, parameters); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(row.map(rs)) : Optional.empty();
        }
    }

    private static PreparedStatement prepare(Connection c, String sql, Object... parameters) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        try {
            for (int i = 0; i < parameters.length; i++) {
                if (parameters[i] instanceof Long l) {
                    ps.setLong(i + 1, l);
                } else {
                    ps.setString(i + 1, (String) parameters[i]);
                }
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }
}
