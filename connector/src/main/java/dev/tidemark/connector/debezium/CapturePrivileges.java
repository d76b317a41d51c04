package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Identifiers;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks, as the connecting user and with catalog functions only, every privilege capture needs before it changes
 * anything, and names each missing one with the statement that grants it:
 * <ul>
 *   <li>the {@code REPLICATION} attribute (the slot and the replication connection);</li>
 *   <li>{@code SELECT} on every captured table (the snapshot);</li>
 *   <li>for a publication that does not exist yet: {@code CREATE} on the database and ownership of every captured table
 *       ({@code CREATE PUBLICATION … FOR TABLE} needs both); for one that exists with other tables than the captured
 *       ones: its ownership (capture sets its tables);</li>
 *   <li>ownership of a table whose {@code REPLICA IDENTITY FULL} capture is to set;</li>
 *   <li>the pipeline's signal table ({@link SnapshotSignals}): {@code CREATE} on its schema while it does not exist,
 *       else {@code SELECT}, {@code INSERT} and {@code DELETE} on it (signals and the snapshot's watermarks).</li>
 * </ul>
 * A superuser has them all. Tables that do not exist are left to {@link SourcePreflight}'s own line. Reads only.
 */
final class CapturePrivileges {
    private CapturePrivileges() {
    }

    /** One line per missing privilege, each ending with the statement that grants it; empty when nothing is missing. */
    static List<String> missing(Connection c, SourceConfig source) throws SQLException {
        String user;
        boolean superuser;
        boolean replication;
        try (PreparedStatement ps = c.prepareStatement("SELECT rolname, rolsuper, rolreplication FROM pg_roles WHERE rolname = current_user");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            user = rs.getString(1);
            superuser = rs.getBoolean(2);
            replication = rs.getBoolean(3);
        }
        if (superuser) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        String who = "user " + quoted(user);
        String role = q(user);
        if (!replication) {
            out.add(who + " lacks the REPLICATION attribute capture's replication slot needs"
                    + " (as a superuser run: ALTER ROLE " + role + " REPLICATION)");
        }
        List<TableId> notOwned = new ArrayList<>();
        for (TableId t : source.tables()) {
            TableRights r = tableRights(c, t);
            if (r == null) {
                continue;
            }
            if (!r.select()) {
                out.add(who + " may not read table " + t + " (the initial snapshot reads it; as its owner run: "
                        + "GRANT SELECT ON " + q(t.schema()) + "." + q(t.table()) + " TO " + role + ")");
            }
            if (!r.owner()) {
                notOwned.add(t);
                if (source.setReplicaIdentityFull() && !r.identityFull()) {
                    out.add("table " + t + " needs REPLICA IDENTITY FULL, which only its owner may set (as its owner run: ALTER TABLE "
                            + q(t.schema()) + "." + q(t.table()) + " REPLICA IDENTITY FULL)");
                }
            }
        }
        out.addAll(publication(c, source, who, role, notOwned));
        signalTable(c, SnapshotSignals.table(source), who, role).ifPresent(out::add);
        return out;
    }

    /** What the user lacks to create, or to write, the pipeline's signal table {@code t}. */
    private static java.util.Optional<String> signalTable(Connection c, TableId t, String who, String role) throws SQLException {
        String sql = "SELECT has_table_privilege(c.oid, 'SELECT') AND has_table_privilege(c.oid, 'INSERT') "
                + "AND has_table_privilege(c.oid, 'DELETE') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE n.nspname = ? AND c.relname = ?";
        java.util.Optional<Boolean> writable = CatalogRows.first(c, sql, rs -> rs.getBoolean(1), t.schema(), t.table());
        if (writable.isPresent()) {
            return writable.get() ? java.util.Optional.empty() : java.util.Optional.of(who + " may not write the pipeline's signal table "
                    + t + " (one-table snapshots are signalled through it; as its owner run: GRANT SELECT, INSERT, DELETE ON "
                    + q(t.schema()) + "." + q(t.table()) + " TO " + role + ")");
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT has_schema_privilege(?, 'CREATE')")) {
            ps.setString(1, t.schema());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1) ? java.util.Optional.empty() : java.util.Optional.of(who + " may not create the pipeline's signal table "
                        + t + " in schema " + quoted(t.schema()) + " (one-table snapshots are signalled through it; as a superuser run: "
                        + "GRANT CREATE ON SCHEMA " + q(t.schema()) + " TO " + role + ")");
            }
        }
    }

    private static List<String> publication(Connection c, SourceConfig source, String who, String role, List<TableId> notOwned) throws SQLException {
        String pub = source.publication();
        Boolean owner = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_has_role(current_user, pubowner, 'USAGE') FROM pg_publication WHERE pubname = ?")) {
            ps.setString(1, pub);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    owner = rs.getBoolean(1);
                }
            }
        }
        List<String> out = new ArrayList<>();
        if (owner == null) {
            boolean create;
            try (PreparedStatement ps = c.prepareStatement("SELECT has_database_privilege(current_database(), 'CREATE'), current_database()");
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                create = rs.getBoolean(1);
                if (!create) {
                    out.add(who + " may not create publication " + quoted(pub) + " in database " + quoted(rs.getString(2))
                            + " (as a superuser run: GRANT CREATE ON DATABASE " + q(rs.getString(2)) + " TO " + role + ")");
                }
            }
            for (TableId t : notOwned) {
                out.add(who + " does not own table " + t + ", which CREATE PUBLICATION " + q(pub) + " FOR TABLE needs (as a superuser run: "
                        + "ALTER TABLE " + q(t.schema()) + "." + q(t.table()) + " OWNER TO " + role + ")");
            }
        } else if (!owner && !publishedTables(c, pub).equals(new HashSet<>(source.tables()))) {
            out.add(who + " does not own publication " + quoted(pub) + ", whose tables capture must set (as a superuser run: ALTER PUBLICATION "
                    + q(pub) + " OWNER TO " + role + ")");
        }
        return out;
    }

    /** The tables {@code publication} holds. */
    static Set<TableId> publishedTables(Connection c, String publication) throws SQLException {
        Set<TableId> out = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT schemaname, tablename FROM pg_publication_tables WHERE pubname = ?")) {
            ps.setString(1, publication);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new TableId(rs.getString(1), rs.getString(2)));
                }
            }
        }
        return out;
    }

    private record TableRights(boolean select, boolean owner, boolean identityFull) {
    }

    /** The current user's rights on {@code t}, or null when it does not exist. */
    private static TableRights tableRights(Connection c, TableId t) throws SQLException {
        String sql = "SELECT has_table_privilege(c.oid, 'SELECT'), pg_has_role(current_user, c.relowner, 'USAGE'), c.relreplident = 'f' "
                + "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, t.schema());
            ps.setString(2, t.table());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new TableRights(rs.getBoolean(1), rs.getBoolean(2), rs.getBoolean(3)) : null;
            }
        }
    }

    private static String q(String identifier) {
        return Identifiers.doubleQuoted(identifier);
    }

    private static String quoted(String name) {
        return "\"" + name + "\"";
    }
}
