package dev.tidemark.reconcile;

import dev.tidemark.jdbc.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Optional;

/**
 * {@value #TABLE} in the target: one row saying which process reconciles this target until when, so that two
 * scheduled reconciles (two sink members, or two pipelines writing one target) never run at once on it. Taken with a
 * conditional update (free, expired, or already ours); given back by expiring it. Works through a connection in
 * auto-commit mode that the caller owns.
 */
public final class ReconcileLease {
    public static final String TABLE = "tidemark_reconcile_lease";
    private static final String ROW = "reconcile";

    private ReconcileLease() {
    }

    /**
     * Takes the lease for {@code holder} until {@code until} when it is free, expired at {@code now}, or already
     * {@code holder}'s: empty then; else who holds it and until when.
     */
    public static Optional<String> take(Connection c, Dialect d, String holder, Instant now, Instant until) throws SQLException {
        ensure(c, d);
        String sql = "UPDATE " + d.quote(TABLE) + " SET " + d.quote("holder") + " = ?, " + d.quote("expires_ms") + " = ? WHERE "
                + d.quote("id") + " = ? AND (" + d.quote("expires_ms") + " < ? OR " + d.quote("holder") + " = ?)";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, holder);
            ps.setLong(2, until.toEpochMilli());
            ps.setString(3, ROW);
            ps.setLong(4, now.toEpochMilli());
            ps.setString(5, holder);
            if (ps.executeUpdate() == 1) {
                return Optional.empty();
            }
        }
        return Optional.of(holderNow(c, d));
    }

    /** Gives the lease back if {@code holder} has it. */
    public static void release(Connection c, Dialect d, String holder) throws SQLException {
        String sql = "UPDATE " + d.quote(TABLE) + " SET " + d.quote("expires_ms") + " = 0 WHERE " + d.quote("id") + " = ? AND "
                + d.quote("holder") + " = ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, ROW);
            ps.setString(2, holder);
            ps.executeUpdate();
        }
    }

    private static String holderNow(Connection c, Dialect d) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + d.quote("holder") + ", " + d.quote("expires_ms") + " FROM "
                + d.quote(TABLE) + " WHERE " + d.quote("id") + " = ?")) {
            ps.setString(1, ROW);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) + " until " + Instant.ofEpochMilli(rs.getLong(2)) : "another process";
            }
        }
    }

    private static void ensure(Connection c, Dialect d) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + d.quote(TABLE) + " (" + d.quote("id") + " " + d.textType() + " NOT NULL, "
                    + d.quote("holder") + " " + d.textType() + ", " + d.quote("expires_ms") + " " + d.bigintType() + ", PRIMARY KEY ("
                    + d.quote("id") + "))");
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM " + d.quote(TABLE) + " WHERE " + d.quote("id") + " = ?")) {
            ps.setString(1, ROW);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return;
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + d.quote(TABLE) + " (" + d.quote("id") + ", " + d.quote("holder")
                + ", " + d.quote("expires_ms") + ") VALUES (?, '', 0)")) {
            ps.setString(1, ROW);
            ps.executeUpdate();
        } catch (SQLException e) {
            // another process inserted the row between the read and the insert: the row exists, which is all we need
        }
    }
}
