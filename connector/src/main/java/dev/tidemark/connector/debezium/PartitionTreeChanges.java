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
 * one-table snapshot that makes the target exact:
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
     * A tree change capture stops on: its one line, and whether a one-table snapshot of the root requested after the
     * stored position recovers it (a member that left, or one attached with rows; not an unlogged one, which needs
     * {@code SET LOGGED} first).
     */
    record Stop(String line, boolean snapshotRecovers) {
        /**
         * At a start, for a change made since the tree was stored: whether a snapshot of the root requested after the
         * stored position ({@code snapshotRequested}) lets capture follow it.
         */
        boolean recoveredBy(boolean snapshotRequested) {
            return snapshotRequested && snapshotRecovers;
        }
    }

    /**
     * The stop for a change of {@code root}'s tree from {@code known} to {@code now}, or empty when capture can follow.
     * An empty {@code now} (the root itself is gone or no longer partitioned) is not this class's to judge. Every stop
     * names {@code tidemark snapshot --table ROOT}: the snapshot's signal and rows are ordered in the stream after every
     * change capture had not yet read, so a later change cannot undo what it wrote, and its sweep removes the rows that
     * left.
     *
     * @param attachedWithRows the oids of added leaves that hold rows older than their joining the tree
     * @param config           the pipeline file as the user named it, for the command
     */
    static Optional<Stop> stop(TableId root, Collection<PartitionedTables.Member> known, Collection<PartitionedTables.Member> now,
                               Set<Long> attachedWithRows, String config) {
        if (now.isEmpty()) {
            return Optional.empty();
        }
        String snapshot = "`tidemark snapshot --config " + (config == null ? "FILE" : config) + " --table " + root + "`";
        Set<Long> present = now.stream().map(PartitionedTables.Member::oid).collect(Collectors.toSet());
        Optional<TableId> gone = known.stream().filter(m -> !present.contains(m.oid())).map(PartitionedTables.Member::table)
                .min(Comparator.comparing(TableId::toString));
        if (gone.isPresent()) {
            return Optional.of(new Stop("capture stopped: partition " + gone.get() + " left captured table " + root
                    + " while capture ran (detached or dropped), and the target still holds the rows it took along: run " + snapshot
                    + " (it reads " + root + " again and removes the rows the source no longer holds)", true));
        }
        List<PartitionedTables.Member> added = added(known, now);
        Optional<TableId> unlogged = added.stream().filter(PartitionedTables.Member::unlogged).map(PartitionedTables.Member::table).findFirst();
        if (unlogged.isPresent()) {
            return Optional.of(new Stop("capture stopped: partition " + unlogged.get() + " of captured table " + root + " is UNLOGGED, "
                    + "so its changes are not in the WAL: run " + CapturedTableRules.alterSetLogged(unlogged.get()) + ", then "
                    + snapshot + " (it reads " + root + " again, the partition's rows with it)", false));
        }
        return added.stream().filter(m -> attachedWithRows.contains(m.oid())).map(PartitionedTables.Member::table).findFirst()
                .map(t -> new Stop("capture stopped: table " + t + " was attached to captured table " + root + " while capture ran, "
                        + "with rows capture never saw: run " + snapshot + " (it reads " + root + " again, the attached rows with it)", true));
    }
}
