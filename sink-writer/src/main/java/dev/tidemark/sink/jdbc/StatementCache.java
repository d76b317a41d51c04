package dev.tidemark.sink.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The sink's prepared statements on one connection, by SQL text: each is prepared once and reused by every batch.
 * After a rollback {@link #clearBatches()} empties what a statement had batched, keeping it; {@link #close()} closes
 * them all (before the connection is released or replaced). One thread, like the sink.
 */
final class StatementCache implements AutoCloseable {
    private final Connection connection;
    private final Map<String, PreparedStatement> statements = new HashMap<>();

    StatementCache(Connection connection) {
        this.connection = connection;
    }

    /** The statement for {@code sql}, prepared on first use. */
    PreparedStatement get(String sql) throws SQLException {
        PreparedStatement ps = statements.get(sql);
        if (ps == null) {
            ps = connection.prepareStatement(sql);
            statements.put(sql, ps);
        }
        return ps;
    }

    /** Empties every statement's batch; each statement stays cached. */
    void clearBatches() {
        for (PreparedStatement ps : statements.values()) {
            try {
                ps.clearBatch();
            } catch (SQLException ignored) {
                // only a closed statement (or connection) cannot: using it fails the next batch, which then rolls back
            }
        }
    }

    /** Closes every statement, ignoring failures (the connection goes next), and forgets them. */
    @Override
    public void close() {
        for (PreparedStatement ps : statements.values()) {
            try {
                ps.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
        statements.clear();
    }
}
