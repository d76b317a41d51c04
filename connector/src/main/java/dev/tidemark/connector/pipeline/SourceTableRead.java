package dev.tidemark.connector.pipeline;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.debezium.SlotState;
import dev.tidemark.connector.debezium.SnapshotSignals;
import dev.tidemark.connector.debezium.SourceSlots;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Identifiers;
import dev.tidemark.jdbc.UrlMask;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The reads of the source the target-table checks make, only for a table already found at fault in the target
 * ({@link TargetTableGoneCheck}, {@link TargetTableEmptiedCheck}): whether it holds rows, and whether a snapshot of it
 * is pending. Read-only; each read opens and closes its own connection.
 */
final class SourceTableRead {
    private final PipelineConfig config;
    private final SourceSlots slots;

    SourceTableRead(PipelineConfig config) {
        this.config = config;
        this.slots = new SourceSlots(config.source());
    }

    boolean hasRows(TableId t) {
        String quoted = Identifiers.doubleQuoted(t.schema()) + "." + Identifiers.doubleQuoted(t.table());
        try (Connection c = slots.connect(); PreparedStatement exists = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            exists.setString(1, quoted);
            try (ResultSet rs = exists.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    return false; // gone at the source too: capture's own checks speak for it
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT EXISTS (SELECT 1 FROM " + quoted + ")");
                 ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException e) {
            throw unreadable("table " + t, e);
        }
    }

    /** A snapshot of {@code t} requested after the slot's confirmed position: capture has not taken it yet. */
    boolean snapshotPending(TableId t) {
        try {
            if (!(slots.read() instanceof SlotState.Present p) || p.confirmedFlush() == null) {
                return false;
            }
            try (Connection c = slots.connect()) {
                return SnapshotSignals.exists(c, config.source())
                        && SnapshotSignals.requestedAfter(c, config.source(), t, p.confirmedFlush().value());
            }
        } catch (SQLException e) {
            throw unreadable("slot " + config.source().slot() + " and signal table " + SnapshotSignals.table(config.source()), e);
        }
    }

    private IllegalStateException unreadable(String what, SQLException e) {
        return new IllegalStateException("cannot read " + what + " on the source " + UrlMask.mask(config.source().jdbcUrl())
                + " to check the target tables of pipeline " + config.name() + ": " + e.getMessage(), e);
    }
}
