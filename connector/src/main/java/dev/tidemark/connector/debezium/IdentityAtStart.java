package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Replica identities a resumed capture finds changed since it last ran. Pure.
 *
 * <p>A captured table whose identity is no longer {@code FULL} when capture resumes had it changed while capture was
 * stopped, or within the watch's second before a {@code kill -9}: the changes written since may lack whole old rows
 * (an update of the key then loses unchanged TOASTed values in the target). The preflight would set {@code FULL}
 * back and hide it, so the start stops first with {@link IdentityDrift}'s line, unless a snapshot of that table was
 * requested after the stored position (the line's own way on: the snapshot rewrites the table's rows). Only tables
 * captured before under the same relation are judged: a new or re-created table is snapshotted anyway.
 */
final class IdentityAtStart {
    private IdentityAtStart() {
    }

    /**
     * @param identities        each captured table's identity now ({@code relreplident}; {@code i:index} for an index)
     * @param storedRelations   the relation OID of each table the pipeline captured before ({@code <offsets>.tables})
     * @param relations         the relation OID of each captured table now
     * @param snapshotRequested whether a snapshot of the table was requested after the stored position
     * @param config            the pipeline file as the user named it
     * @return the line the start stops with, for the first such table in {@code identities}' order
     */
    static Optional<String> stop(Map<TableId, String> identities, Map<TableId, Long> storedRelations, Map<TableId, Long> relations,
                                 Predicate<TableId> snapshotRequested, boolean setFull, String config) {
        for (Map.Entry<TableId, String> e : identities.entrySet()) {
            TableId t = e.getKey();
            Long before = storedRelations.get(t);
            if (e.getValue().isEmpty() || e.getValue().charAt(0) == 'f' || before == null || !before.equals(relations.get(t))) {
                continue;
            }
            if (!snapshotRequested.test(t)) {
                return IdentityDrift.stop(t, e.getValue().charAt(0), setFull, config);
            }
        }
        return Optional.empty();
    }
}
