package dev.tidemark.cli.observability;

import dev.tidemark.connector.config.PipelineConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalLong;
import java.util.Properties;

/** The WAL the pipeline's replication slot keeps on the source, read on a connection of its own (short timeouts). */
final class SlotWal {
    private SlotWal() {
    }

    /** Bytes between the server's current WAL position and the slot's restart_lsn; empty when the slot does not exist. */
    static OptionalLong read(PipelineConfig config) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", config.source().user());
        if (!config.source().password().isEmpty()) {
            p.setProperty("password", config.source().password().reveal());
        }
        p.setProperty("connectTimeout", "3");
        p.setProperty("socketTimeout", "5");
        p.setProperty("ApplicationName", "tidemark-observability");
        String sql = "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint FROM pg_replication_slots WHERE slot_name = ?";
        try (Connection c = DriverManager.getConnection(config.source().jdbcUrl(), p); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, config.source().slot());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return OptionalLong.empty();
                }
                long v = rs.getLong(1);
                return rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(v);
            }
        }
    }
}
