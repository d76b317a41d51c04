package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import java.util.HashMap;
import java.util.Map;

/**
 * Which captured tables were just truncated, by transaction. A {@code TRUNCATE} of a partitioned root fires the
 * {@link PartitionTruncateTrigger} of every leaf too; PostgreSQL publishes that one as the root's truncate event, and the
 * leaves' messages follow it in the same transaction. A message is covered by the root's truncate when the root's last
 * event is a truncate of the message's transaction: any row change of the root in between (a row inserted again, then
 * the partition truncated) uncovers it. Pure; not thread-safe (capture's consumer thread owns it).
 */
final class RootTruncates {
    private final Map<TableId, Long> truncatedBy = new HashMap<>();

    /** Notes one change event of {@code table}: {@code op} as Debezium writes it, {@code txId} (null when not known). */
    void observe(TableId table, String op, Long txId) {
        if ("t".equals(op) && txId != null) {
            truncatedBy.put(table, txId);
        } else {
            truncatedBy.remove(table);
        }
    }

    /** Whether a message of transaction {@code txId} about a partition of {@code root} is covered by the root's truncate. */
    boolean covers(TableId root, Long txId) {
        return txId != null && txId.equals(truncatedBy.get(root));
    }
}
