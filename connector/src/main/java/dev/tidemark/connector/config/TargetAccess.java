package dev.tidemark.connector.config;

import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.JdbcEndpoints;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The plain reads of a pipeline's target that checks and commands share: a connection with the target's credentials,
 * whether a table exists (the dialect's catalog query, the sink's own notion of it) and whether it holds rows. Writes
 * nothing.
 */
public final class TargetAccess {
    private TargetAccess() {
    }

    /** A connection to {@code config}'s target; opening a SQLite file that does not exist creates it, so check first. */
    public static Connection open(PipelineConfig config) throws SQLException {
        Properties p = new Properties();
        if (config.target().user() != null) {
            p.setProperty("user", config.target().user());
        }
        if (!config.target().password().isEmpty()) {
            p.setProperty("password", config.target().password().reveal());
        }
        return JdbcEndpoints.open(JdbcEndpoints.Side.TARGET, config.target().jdbcUrl(), p);
    }

    /** Whether {@code table} exists in the target (as the sink names it, in the connection's schema). */
    public static boolean tableExists(Connection c, Dialect dialect, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(dialect.columnsQuery())) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Whether {@code table}, which must exist, holds at least one row. */
    public static boolean hasRows(Connection c, Dialect dialect, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM " + dialect.quote(table) + " LIMIT 1");
             ResultSet rs = ps.executeQuery()) {
            return rs.next();
        }
    }
}
