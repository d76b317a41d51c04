package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.CursorValue;
import dev.tidemark.jdbc.SourceSql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Reads what fixes a window's upper bound from the source, in this order: {@code MAX(cursor)}, then (timestamp+id)
 * the largest id at it, then (when {@link WindowPlanner#settles}) the database clock minus the settle delay; the
 * bound itself is {@link WindowPlanner#upperBound}'s decision. Each read is one statement on the source connection
 * (autocommit). Not thread-safe.
 */
final class SourceBounds {
    private final Connection source;
    private final SourceSql sql;

    SourceBounds(Connection source, SourceSql sql) {
        this.source = source;
        this.sql = sql;
    }

    /** {@code MAX} of the cursor's primary column; null for an empty table. */
    CursorValue max(PolledTable table) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement(WindowQuery.maxSql(sql, table.source(), table.primary().name()));
             ResultSet rs = ps.executeQuery()) {
            return rs.next() ? sql.readCursorValue(rs, 1, table.primary().kind()) : null;
        }
    }

    /** The upper bound for {@code max} (as read by {@link #max}); null when {@code max} is null. */
    Watermark upper(PolledTable table, CursorValue max) throws SQLException {
        if (max == null) {
            return null;
        }
        Long maxIdAtMax = null;
        if (table.settings().cursor() instanceof Cursor.TimestampId ti) {
            try (PreparedStatement ps = source.prepareStatement(WindowQuery.maxIdAtSql(sql, table.source(), ti))) {
                sql.bindCursorValue(ps, 1, max);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    long id = rs.getLong(1);
                    maxIdAtMax = rs.wasNull() ? null : id;
                }
            }
        }
        CursorValue settledClock = WindowPlanner.settles(table.settings()) ? sql.clockMinus(source, max, table.settings().settle()) : null;
        return WindowPlanner.upperBound(max, maxIdAtMax, settledClock);
    }
}
