package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a pipeline's offsets from the target's {@code tidemark_offsets} (topic → partition → next offset) without
 * writing anything: for {@code tidemark status} and for the sink's own reads. Never creates the table; the caller
 * owns the connection and its transaction.
 */
public final class StoredOffsetsReader {
    private StoredOffsetsReader() {
    }

    /** The stored offsets, or empty when {@code tidemark_offsets} does not exist in the target. */
    public static Optional<Map<String, Map<Integer, Long>>> readIfPresent(Connection connection, Dialect dialect, String pipeline)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(dialect.columnsQuery())) {
            ps.setString(1, SinkOptions.OFFSETS_TABLE);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
            }
        }
        return Optional.of(read(connection, dialect, pipeline));
    }

    /** The stored offsets of {@code pipeline}; the table must exist. */
    static Map<String, Map<Integer, Long>> read(Connection connection, Dialect dialect, String pipeline) throws SQLException {
        Map<String, Map<Integer, Long>> out = new LinkedHashMap<>();
        String sql = "SELECT " + dialect.quote("topic") + ", " + dialect.quote("partition") + ", " + dialect.quote("next_offset")
                + " FROM " + dialect.quote(SinkOptions.OFFSETS_TABLE) + " WHERE " + dialect.quote("pipeline") + " = ?";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, pipeline);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getString(1), t -> new HashMap<>()).put(rs.getInt(2), rs.getLong(3));
                }
            }
        }
        return out;
    }
}
