package dev.tidemark.connect;

import dev.tidemark.event.TableId;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether a task may resume a partition at its stored offset into the target table its events name (pure). The target
 * stored an offset above 0 for the partition, so the sink applied records of it before. Two faults stop the task
 * before it writes:
 * <ul>
 *   <li>{@link #refusal gone}: the target table does not exist now: it was dropped while the task was stopped, or
 *       {@code target.tables} now sends the table to a new name; resuming would create it with later rows only;</li>
 *   <li>{@link #emptied}: the target table holds no rows, while the records the task applied last leave rows in it
 *       ({@code AppliedRows}): it was emptied by hand (or is a new, empty {@code target.tables} name); resuming would
 *       leave out every row applied before.</li>
 * </ul>
 * The way on replays the topic from offset 0 (a partition without a stored offset starts there, {@link SeekPlan})
 * into the table, or restores what changed.
 *
 * <p>Example: {@code things.public.things} partition 0 stored at 60, next event of {@code public.things}, target
 * table {@code things_v2} missing → refused, naming the {@code DELETE} of that topic's stored offsets.
 */
final class ResumedTable {
    private ResumedTable() {
    }

    /**
     * The refusal for a missing target table, or empty when the table exists or nothing was applied from the partition
     * before.
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
                + wayOn(reset, connector) + " or restore " + (written ? "the table" : "the previous target.tables entry")
                + " and restart the task");
    }

    /**
     * The refusal for an existing target table that holds no rows although the records applied last leave some, or
     * empty when it holds rows, those records leave none, or nothing was applied from the partition before.
     *
     * @param holdsRows   target table {@code target} (which exists) holds a row
     * @param rowsApplied the records of the partition applied last, below {@code stored}, leave a row of {@code source}
     */
    static Optional<String> emptied(TopicPartition tp, long stored, TableId source, String target, boolean holdsRows,
                                    boolean rowsApplied, String pipeline, String connector) {
        if (holdsRows || !rowsApplied || stored <= 0) {
            return Optional.empty();
        }
        String reset = "`DELETE FROM tidemark_offsets WHERE pipeline = " + literal(pipeline) + " AND topic = " + literal(tp.topic()) + "`";
        return Optional.of("topic " + tp.topic() + " partition " + tp.partition() + ": target table " + target + " (of table " + source
                + ") holds no rows, while the records of this partition the task applied last, below the stored offset " + stored
                + ", leave rows in it (was it emptied by hand, or is it new in target.tables?): resuming would leave out every row"
                + " applied before," + wayOn(reset, connector) + " or restore its rows and restart the task");
    }

    /** How the task stopped and the replay that fills the table: {@code reset} on the target, then the restart. */
    private static String wayOn(String reset, String connector) {
        return " so the task stopped before writing it, offsets not advanced. To fill it by replaying the topic from offset 0 (the"
                + " topic must still hold the table's whole history, as a Debezium topic does from its snapshot), run on the target "
                + reset + ", then restart the failed task (`POST /connectors/" + connector + "/restart?includeTasks=true&onlyFailed=true`);";
    }

    /** {@code value} as an SQL string literal. */
    private static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}
