package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.SourceConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The I/O around capture's replication slot: read its state, drop it (for {@code --resnapshot}), and write a
 * transactional logical decoding message with Tidemark's prefix once the slot exists, so capture stores offsets
 * even when its snapshot had no rows. Every call opens and closes its own connection; values are always bound.
 */
public final class SourceSlots {
    /** The prefix of Tidemark's own logical decoding messages; Debezium is told to pass only these. */
    public static final String MESSAGE_PREFIX = "tidemark";

    private final SourceConfig source;
    private volatile boolean seen;

    public SourceSlots(SourceConfig source) {
        this.source = source;
    }

    public Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", source.user());
        if (!source.password().isEmpty()) {
            p.setProperty("password", source.password().reveal());
        }
        return DriverManager.getConnection(source.jdbcUrl(), p);
    }

    /** The slot as it is now. */
    public SlotState read() throws SQLException {
        try (Connection c = connect();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT confirmed_flush_lsn::text, active FROM pg_replication_slots WHERE slot_name = ? AND database = current_database()")) {
            ps.setString(1, source.slot());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new SlotState.Absent();
                }
                seen = true;
                String lsn = rs.getString(1);
                return new SlotState.Present(lsn == null ? null : Lsn.parse(lsn), rs.getBoolean(2));
            }
        }
    }

    /** True once {@link #read()} found the slot: capture knows it existed (a later absence means it was dropped). */
    public boolean seen() {
        return seen;
    }

    /** Drops the slot (it must not be in use). */
    public void drop() throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT pg_drop_replication_slot(?)")) {
            ps.setString(1, source.slot());
            ps.execute();
        }
    }

    /** Writes a transactional logical decoding message with {@link #MESSAGE_PREFIX}; returns its LSN. */
    public Lsn emitMarker(String content) throws SQLException {
        try (Connection c = connect();
             PreparedStatement ps = c.prepareStatement("SELECT pg_logical_emit_message(true, ?, ?)::text")) {
            ps.setString(1, MESSAGE_PREFIX);
            ps.setString(2, content);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return Lsn.parse(rs.getString(1));
            }
        }
    }
}
