package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads, from PostgreSQL's catalog, what capture needs to know about the kind of each captured table: whether it is a
 * partitioned table (captured as its root: one topic under its name, every partition's rows in it), a partition of
 * another table, or unlogged, and the members of a partitioned table's tree with their replica identity. Reads only.
 */
final class PartitionedTables {
    private PartitionedTables() {
    }

    /** One member of a partition tree (the root itself included): a leaf holds rows, any other member is partitioned. */
    record Member(long oid, TableId table, boolean leaf, char identity, boolean unlogged) {
    }

    /**
     * What the catalog says about one captured table.
     *
     * @param partitioned  a partitioned table (relkind {@code p})
     * @param unlogged     {@code UNLOGGED}: its changes are not written to the WAL
     * @param ancestors    the partitioned tables it is a partition of, nearest first (empty for a table that is none)
     * @param members      for a partitioned table, every member of its tree (itself first); else empty
     */
    record Relation(TableId table, boolean partitioned, boolean unlogged, List<TableId> ancestors, List<Member> members) {
        Relation {
            ancestors = List.copyOf(ancestors);
            members = List.copyOf(members);
        }
    }

    /** What the catalog says about {@code t}, or empty when it does not exist. */
    static Optional<Relation> read(Connection c, TableId t) throws SQLException {
        String sql = "SELECT c.oid, c.relkind, c.relpersistence FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE n.nspname = ? AND c.relname = ?";
        long oid;
        boolean partitioned;
        boolean unlogged;
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, t.schema());
            ps.setString(2, t.table());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                oid = rs.getLong(1);
                partitioned = "p".equals(rs.getString(2));
                unlogged = "u".equals(rs.getString(3));
            }
        }
        return Optional.of(new Relation(t, partitioned, unlogged, ancestors(c, oid), partitioned ? members(c, oid) : List.of()));
    }

    /** The tables {@code oid} is a partition of, nearest first. */
    private static List<TableId> ancestors(Connection c, long oid) throws SQLException {
        String sql = "SELECT n.nspname, k.relname FROM pg_partition_ancestors(CAST(? AS oid)::regclass) WITH ORDINALITY a(relid, pos) "
                + "JOIN pg_class k ON k.oid = a.relid::oid JOIN pg_namespace n ON n.oid = k.relnamespace "
                + "WHERE a.relid::oid <> CAST(? AS oid) ORDER BY a.pos";
        List<TableId> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, oid);
            ps.setLong(2, oid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new TableId(rs.getString(1), rs.getString(2)));
                }
            }
        }
        return out;
    }

    /** Every member of the partition tree rooted at {@code oid} (the root first), as the catalog holds it now. */
    static List<Member> members(Connection c, long oid) throws SQLException {
        String sql = "SELECT t.relid::oid, n.nspname, k.relname, t.isleaf, k.relreplident, k.relpersistence "
                + "FROM pg_partition_tree(CAST(? AS oid)::regclass) t JOIN pg_class k ON k.oid = t.relid::oid "
                + "JOIN pg_namespace n ON n.oid = k.relnamespace ORDER BY t.level, n.nspname, k.relname";
        List<Member> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, oid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Member(rs.getLong(1), new TableId(rs.getString(2), rs.getString(3)), rs.getBoolean(4),
                            rs.getString(5).charAt(0), "u".equals(rs.getString(6))));
                }
            }
        }
        return out;
    }

    /** The members of {@code root}'s tree now, or empty when {@code root} no longer exists or is no longer partitioned. */
    static List<Member> membersOf(Connection c, TableId root) throws SQLException {
        Optional<Relation> r = read(c, root);
        return r.filter(Relation::partitioned).map(Relation::members).orElse(List.of());
    }

    /** The captured partitioned tables (roots) among some captured tables, and the leaves of their trees. */
    record Leaves(List<TableId> roots, List<TableId> leaves) {
        Leaves {
            roots = List.copyOf(roots);
            leaves = List.copyOf(leaves);
        }
    }

    /** The partitioned tables among {@code captured} and the leaves of their trees, as the catalog holds them now. */
    static Leaves leaves(Connection c, List<TableId> captured) throws SQLException {
        List<TableId> roots = new ArrayList<>();
        List<TableId> leaves = new ArrayList<>();
        for (TableId t : captured) {
            List<Member> members = membersOf(c, t);
            if (!members.isEmpty()) {
                roots.add(t);
                members.stream().filter(Member::leaf).map(Member::table).forEach(leaves::add);
            }
        }
        return new Leaves(roots, leaves);
    }
}
