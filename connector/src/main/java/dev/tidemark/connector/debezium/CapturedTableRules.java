package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which captured tables capture refuses for what they are, and what a partitioned table needs. Pure.
 *
 * <ul>
 *   <li>A partition listed in {@code source.tables} beside a partitioned table it belongs to: the partitioned table is
 *       captured as its root (one topic, the root's name, every partition's rows in it), so the partition's rows would
 *       arrive twice under two names. Refused: remove the partition from {@code source.tables}.</li>
 *   <li>An {@code UNLOGGED} table, or an unlogged partition of a captured partitioned table: its changes are not in
 *       the WAL, capture would never see one. Refused: {@code ALTER TABLE … SET LOGGED} or remove it.</li>
 *   <li>A partitioned table's members other than the root need {@code REPLICA IDENTITY FULL} like the root: with
 *       {@code publish_via_partition_root} the partition a row lives in decides what its old tuple holds.</li>
 * </ul>
 */
final class CapturedTableRules {
    private CapturedTableRules() {
    }

    /** One line per captured table refused for its kind (empty: none). */
    static List<String> refusals(Collection<PartitionedTables.Relation> relations) {
        Set<TableId> captured = new java.util.HashSet<>();
        relations.forEach(r -> captured.add(r.table()));
        List<String> out = new ArrayList<>();
        for (PartitionedTables.Relation r : relations) {
            Optional<TableId> root = r.ancestors().stream().filter(captured::contains).reduce((near, far) -> far);
            root.ifPresent(p -> out.add("source.tables lists " + r.table() + " beside partitioned table " + p
                    + ", which holds it: capture takes " + p + " as its root with every partition (one topic, " + p
                    + "'s name), so remove " + r.table() + " from source.tables"));
            if (r.unlogged()) {
                out.add("table " + r.table() + " is UNLOGGED, so its changes are not in the WAL and capture would never see one: run "
                        + alterSetLogged(r.table()) + " or remove " + r.table() + " from source.tables");
            }
            for (PartitionedTables.Member m : r.members()) {
                if (m.unlogged()) {
                    out.add("partition " + m.table() + " of captured table " + r.table() + " is UNLOGGED, so its changes are not in "
                            + "the WAL and capture would never see one: run " + alterSetLogged(m.table()) + " or remove "
                            + r.table() + " from source.tables");
                }
            }
        }
        return out;
    }

    /** The members of a partitioned table's tree below its root that lack {@code REPLICA IDENTITY FULL}. */
    static List<TableId> lackingFullIdentity(PartitionedTables.Relation r) {
        return r.members().stream().filter(m -> !m.table().equals(r.table()) && m.identity() != 'f')
                .map(PartitionedTables.Member::table).toList();
    }

    static String alterSetLogged(TableId t) {
        return "ALTER TABLE " + SourcePreflight.quote(t.schema()) + "." + SourcePreflight.quote(t.table()) + " SET LOGGED";
    }
}
