package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import java.sql.Connection;
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
        Optional<Kind> kind = CatalogRows.first(c, sql, rs -> new Kind(rs.getLong(1), "p".equals(rs.getString(2)),
                "u".equals(rs.getString(3))), t.schema(), t.table());
        if (kind.isEmpty()) {
            return Optional.empty();
        }
        Kind k = kind.get();
        return Optional.of(new Relation(t, k.partitioned(), k.unlogged(), ancestors(c, k.oid()), k.partitioned() ? members(c, k.oid()) : List.of()));
    }

    private record Kind(long oid, boolean partitioned, boolean unlogged) {
    }

    /** The tables {@code oid} is a partition of, nearest first. */
    private static List<TableId> ancestors(Connection c, long oid) throws SQLException {
        String sql = "SELECT n.nspname, k.relname FROM pg_partition_ancestors(CAST(? AS oid)::regclass) WITH ORDINALITY a(relid, pos) "
                + "JOIN pg_class k ON k.oid = a.relid::oid JOIN pg_namespace n ON n.oid = k.relnamespace "
                + "WHERE a.relid::oid <> CAST(? AS oid) ORDER BY a.pos";
        return CatalogRows.list(c, sql, rs -> new TableId(rs.getString(1), rs.getString(2)), oid, oid);
    }

    /** Every member of the partition tree rooted at {@code oid} (the root first), as the catalog holds it now. */
    static List<Member> members(Connection c, long oid) throws SQLException {
        String sql = "SELECT t.relid::oid, n.nspname, k.relname, t.isleaf, k.relreplident, k.relpersistence "
                + "FROM pg_partition_tree(CAST(? AS oid)::regclass) t JOIN pg_class k ON k.oid = t.relid::oid "
                + "JOIN pg_namespace n ON n.oid = k.relnamespace ORDER BY t.level, n.nspname, k.relname";
        return CatalogRows.list(c, sql, rs -> new Member(rs.getLong(1), new TableId(rs.getString(2), rs.getString(3)),
                rs.getBoolean(4), rs.getString(5).charAt(0), "u".equals(rs.getString(6))), oid);
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
