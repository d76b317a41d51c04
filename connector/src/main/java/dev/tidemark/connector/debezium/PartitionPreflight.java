package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.UsageException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of {@link SourcePreflight} about what kind of table each captured table is (reads only; changes nothing):
 * a partition beside its captured root and an unlogged table are refused as a wrong request (exit 2, {@link
 * UsageException}), a publication that would publish partitions under their own names as a refusal of state
 * ({@link CaptureRefusedException}); every member of a captured partitioned table's tree that lacks {@code REPLICA
 * IDENTITY FULL} is returned to be set (or reported when that is not allowed).
 */
final class PartitionPreflight {
    private PartitionPreflight() {
    }

    /**
     * @param problems where a member lacking {@code REPLICA IDENTITY FULL} is reported when {@code
     *                 source.setReplicaIdentityFull} is false
     * @return the members to set {@code REPLICA IDENTITY FULL} on once every check passed
     * @throws UsageException          naming every captured table refused for its kind, one line each
     * @throws CaptureRefusedException when the existing publication does not publish via the partition root
     */
    static List<TableId> check(Connection c, SourceConfig source, List<String> problems) throws SQLException {
        List<PartitionedTables.Relation> relations = new ArrayList<>();
        for (TableId t : source.tables()) {
            PartitionedTables.read(c, t).ifPresent(relations::add);
        }
        List<String> refused = CapturedTableRules.refusals(relations);
        if (!refused.isEmpty()) {
            throw new UsageException(String.join("\n", refused));
        }
        List<TableId> partitioned = relations.stream().filter(PartitionedTables.Relation::partitioned)
                .map(PartitionedTables.Relation::table).toList();
        PublicationSpec.refusal(source.publication(), PublicationSpec.viaRoot(c, source.publication()), partitioned)
                .ifPresent(line -> {
                    throw new CaptureRefusedException(line);
                });
        List<TableId> toAlter = new ArrayList<>();
        for (PartitionedTables.Relation r : relations) {
            for (TableId m : CapturedTableRules.lackingFullIdentity(r)) {
                if (source.setReplicaIdentityFull()) {
                    toAlter.add(m);
                } else {
                    problems.add("partition " + m + " of " + r.table() + " must have REPLICA IDENTITY FULL (run ALTER TABLE "
                            + SourcePreflight.quote(m.schema()) + "." + SourcePreflight.quote(m.table())
                            + " REPLICA IDENTITY FULL, or set source.setReplicaIdentityFull: true)");
                }
            }
        }
        return toAlter;
    }
}
