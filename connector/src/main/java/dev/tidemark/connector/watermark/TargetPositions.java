package dev.tidemark.connector.watermark;

import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.jdbc.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the position a target row was last written with, to tell a row seen for the first time from one copied
 * before (observed lateness). Direct mode only: there the target is the destination and is up to date when a run
 * starts. Used only for rows inside the overlap, one keyed lookup each.
 */
public final class TargetPositions {
    private final Connection connection;
    private final Dialect dialect;
    private final String positionColumn;

    /** @param connection a connection to the target (autocommit off), not the sink's own */
    public TargetPositions(Connection connection, Dialect dialect, String positionColumn) {
        this.connection = connection;
        this.dialect = dialect;
        this.positionColumn = positionColumn;
    }

    /**
     * The stored position of the row with {@code key}, decoded ({@link SourcePosition#decode}); empty when the row
     * (or the table) does not exist or the row has no position.
     */
    Optional<SourcePosition> position(String table, Map<String, Object> key, RowSchema schema) throws SQLException {
        try {
            return lookup(table, key, schema).map(SourcePosition::decode);
        } finally {
            connection.commit(); // after the statement is closed: an open SQLite statement keeps its snapshot
        }
    }

    private Optional<String> lookup(String table, Map<String, Object> key, RowSchema schema) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT ").append(dialect.quote(positionColumn)).append(" FROM ")
                .append(dialect.quote(table)).append(" WHERE ");
        int i = 0;
        for (String k : key.keySet()) {
            sql.append(i++ == 0 ? "" : " AND ").append(dialect.quote(k)).append(" = ?");
        }
        try (PreparedStatement ps = connection.prepareStatement(sql.toString())) {
            int n = 1;
            for (Map.Entry<String, Object> e : key.entrySet()) {
                ColumnType type = schema.column(e.getKey()).map(c -> c.type()).orElse(ColumnType.of("string"));
                dialect.bind(ps, n++, e.getValue(), type);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            if (exists(table)) {
                throw e;
            }
            return Optional.empty();
        }
    }

    private boolean exists(String table) throws SQLException {
        connection.rollback();
        try (PreparedStatement ps = connection.prepareStatement(dialect.columnsQuery())) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
