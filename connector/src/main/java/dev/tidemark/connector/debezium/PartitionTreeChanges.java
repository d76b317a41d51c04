package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a change of a captured partitioned table's tree means for capture. Pure.
 *
 * <p>With {@code publish_via_partition_root} every change to a partition arrives under the root's name, so a partition
 * created empty ({@code CREATE TABLE … PARTITION OF}) needs nothing but its replica identity ({@link #added}). Three
 * changes move rows into or out of the root without a row event, and capture stops naming the partition and the
 * repair that makes the target exact:
 * <ul>
 *   <li>a member that left the tree (detached or dropped): its rows left the root, the target still holds them;</li>
 *   <li>an added leaf holding rows older than the moment it joined the tree (attached with rows): they never arrive;</li>
 *   <li>an added leaf that is unlogged: no change to it is written to the WAL.</li>
 * </ul>
 */
final class PartitionTreeChanges {
    private PartitionTreeChanges() {
    }

    /** The members in {@code now} that are not in {@code known} (by oid). */
    static List<PartitionedTables.Member> added(Collection<PartitionedTables.Member> known, Collection<PartitionedTables.Member> now) {
        Set<Long> seen = known.stream().map(PartitionedTables.Member::oid).collect(Collectors.toSet());
        return now.stream().filter(m -> !seen.contains(m.oid())).toList();
    }

    /**
     * The one line capture stops with, or empty when it can follow. An empty {@code now} (the root itself is gone or no
     * longer partitioned) is not this class's to judge.
     *
     * @param attachedWithRows the oids of added leaves that hold rows older than their joining the tree
     * @param config           the pipeline file as the user named it, for the command
     */
    static Optional<String> stop(TableId root, Collection<PartitionedTables.Member> known, Collection<PartitionedTables.Member> now,
                                 Set<Long> attachedWithRows, String config) {
        if (now.isEmpty()) {
            return Optional.empty();
        }
        String file = config == null ? "FILE" : config;
        Set<Long> present = now.stream().map(PartitionedTables.Member::oid).collect(Collectors.toSet());
        Optional<TableId> gone = known.stream().filter(m -> !present.contains(m.oid())).map(PartitionedTables.Member::table)
                .min(Comparator.comparing(TableId::toString));
        if (gone.isPresent()) {
            return Optional.of("capture stopped: partition " + gone.get() + " left captured table " + root
                    + " while capture ran (detached or dropped), and the target still holds the rows it took along: run `tidemark "
                    + "reconcile --config " + file + " --repair --apply --force` to delete them there (--force: they may be more "
                    + "than a tenth of the table), then start capture again");
        }
        List<PartitionedTables.Member> added = added(known, now);
        Optional<TableId> unlogged = added.stream().filter(PartitionedTables.Member::unlogged).map(PartitionedTables.Member::table).findFirst();
        if (unlogged.isPresent()) {
            return Optional.of("capture stopped: partition " + unlogged.get() + " of captured table " + root + " is UNLOGGED, so "
                    + "its changes are not in the WAL: run " + CapturedTableRules.alterSetLogged(unlogged.get()) + ", then `tidemark "
                    + "reconcile --config " + file + " --repair --apply` to copy its rows, then start capture again");
        }
        return added.stream().filter(m -> attachedWithRows.contains(m.oid())).map(PartitionedTables.Member::table).findFirst()
                .map(t -> "capture stopped: table " + t + " was attached to captured table " + root + " while capture ran, with "
                        + "rows capture never saw: run `tidemark reconcile --config " + file + " --repair --apply` to copy them to "
                        + "the target, then start capture again");
    }
}
