package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Optional;

/**
 * The I/O of {@link Ownership}: reads its {@link Ownership.Facts} from the state folder and the source (the slot and
 * who holds it, the publication, the Tidemark owner records in publication comments), and writes a pipeline's owner
 * record as its publication's comment. Reads catalog views only; values are always bound (the comment through
 * {@code set_config} and {@code format('%I', '%L')} on the server, as {@code COMMENT} takes no parameters).
 */
final class SourceOwners {
    private SourceOwners() {
    }

    static Ownership.Facts read(PipelineConfig config, Connection c) throws SQLException {
        var s = config.source();
        boolean slotExists = false;
        Optional<Ownership.Holder> holder = Optional.empty();
        try (PreparedStatement ps = c.prepareStatement("SELECT s.active, s.active_pid, host(a.client_addr), a.client_hostname, "
                + "a.application_name FROM pg_replication_slots s LEFT JOIN pg_stat_activity a ON a.pid = s.active_pid "
                + "WHERE s.slot_name = ? AND s.database = current_database()")) {
            ps.setString(1, s.slot());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    slotExists = true;
                    if (rs.getBoolean(1)) {
                        String host = rs.getString(4) != null ? rs.getString(4) : rs.getString(3) != null ? rs.getString(3) : "(local socket)";
                        holder = Optional.of(new Ownership.Holder(rs.getInt(2), host, rs.getString(5)));
                    }
                }
            }
        }
        Optional<SlotOwner> slotRecord = Optional.empty();
        Optional<SlotOwner> publicationRecord = Optional.empty();
        boolean publicationExists = false;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT pubname, obj_description(oid, 'pg_publication') FROM pg_publication ORDER BY pubname")) {
            while (rs.next()) {
                boolean ours = rs.getString(1).equals(s.publication());
                publicationExists |= ours;
                Optional<SlotOwner> r = SlotOwner.decode(rs.getString(2));
                if (ours) {
                    publicationRecord = r;
                }
                if (r.isPresent() && r.get().slot().equals(s.slot()) && (slotRecord.isEmpty() || ours)) {
                    slotRecord = r;
                }
            }
        }
        boolean tablesMatch = publicationExists && CapturePrivileges.publishedTables(c, s.publication()).equals(new HashSet<>(s.tables()));
        return new Ownership.Facts(config.name(), s.slot(), s.publication(), config.stateDir(), OwnerFile.read(config.stateDir(), config.name()),
                !(OffsetsFile.read(config.offsetsFile()) instanceof StoredOffsets.Absent), slotExists, holder, slotRecord, publicationExists,
                publicationRecord, tablesMatch);
    }

    /** True when the publication exists. */
    static boolean publicationExists(Connection c, String publication) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_publication WHERE pubname = ?")) {
            ps.setString(1, publication);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Writes {@code owner} as the comment of {@code publication}. */
    static void record(Connection c, String publication, SlotOwner owner) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT set_config('tidemark.owner_publication', ?, false), "
                + "set_config('tidemark.owner_record', ?, false)")) {
            ps.setString(1, publication);
            ps.setString(2, owner.encode());
            ps.execute();
        }
        try (Statement st = c.createStatement()) {
            st.execute("DO $$BEGIN EXECUTE format('COMMENT ON PUBLICATION %I IS %L', current_setting('tidemark.owner_publication'), "
                    + "current_setting('tidemark.owner_record')); END$$");
        }
    }
}
