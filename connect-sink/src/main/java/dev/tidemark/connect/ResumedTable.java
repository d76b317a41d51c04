package dev.tidemark.connect;

import dev.tidemark.event.TableId;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether a task may resume a partition at its stored offset into the target table the partition's next event names
 * (pure). The target stored an offset above 0 for the partition, so the sink applied records of it before; if their
 * target table does not exist now, it was dropped while the task was stopped, or {@code target.tables} now sends the
 * table to a new name: resuming would create it with later rows only. The way on replays the topic from offset 0
 * (a partition without a stored offset starts there, {@link SeekPlan}) into the table, or restores what changed.
 *
 * <p>Example: {@code things.public.things} partition 0 stored at 60, next event of {@code public.things}, target
 * table {@code things_v2} missing → refused, naming the {@code DELETE} of that topic's stored offsets.
 */
final class ResumedTable {
    private ResumedTable() {
    }

    /**
     * The refusal, or empty when the table exists or nothing was applied from the partition before.
     *
     * @param stored    the partition's offset stored in the target when it was opened
     * @param exists    target table {@code target} exists
     * @param written   the sink recorded {@code target} in {@code tidemark_columns} (it wrote it before)
     * @param connector the connector's name, for the restart
     */
    static Optional<String> refusal(TopicPartition tp, long stored, TableId source, String target, boolean exists, boolean written,
                                    String pipeline, String connector) {
        if (exists || stored <= 0) {
            return Optional.empty();
        }
        String reset = "`DELETE FROM tidemark_offsets WHERE pipeline = " + literal(pipeline) + " AND topic = " + literal(tp.topic()) + "`"
                + (written ? " and `DELETE FROM tidemark_columns WHERE table_name = " + literal(target) + "`" : "");
        return Optional.of("topic " + tp.topic() + " partition " + tp.partition() + ": target table " + target + " (of table " + source
                + ") " + (written ? "was written by this sink but no longer exists" : "does not exist (is it new in target.tables?)")
                + ", while the target stored offset " + stored + " for this partition: resuming would create it with later rows only,"
                + " so the task stopped before writing it, offsets not advanced. To fill it by replaying the topic from offset 0 (the"
                + " topic must still hold the table's whole history, as a Debezium topic does from its snapshot), run on the target "
                + reset + ", then restart the failed task (`POST /connectors/" + connector + "/restart?includeTasks=true&onlyFailed=true`);"
                + " or restore " + (written ? "the table" : "the previous target.tables entry") + " and restart the task");
    }

    /** {@code value} as an SQL string literal. */
    private static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}
