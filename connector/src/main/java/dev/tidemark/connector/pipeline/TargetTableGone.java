package dev.tidemark.connector.pipeline;

import dev.tidemark.event.TableId;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether the sink may resume into a target that lacks one of its tables (pure). Resuming from the stored offsets
 * creates a missing target table on its next event and fills it with later rows only: every row applied before is
 * silently missing. That happens when the user dropped one target table while the pipeline was stopped, or changed
 * {@code target.tables} so that a table now maps to a target table that does not exist.
 *
 * <p>A captured table is at fault when all of these hold:
 * <ul>
 *   <li>its topic has a stored offset above 0 in the target (the sink applied records of it before) below which the
 *       records may leave a row (not when the start read the topic's whole history and it leaves none, e.g. only the
 *       sweep of a snapshot that found the table empty);</li>
 *   <li>its target table does not exist;</li>
 *   <li>its source table holds rows (if it holds none, the records still to come leave the target equal to it);</li>
 *   <li>no snapshot of it is pending: no {@code tidemark snapshot --table} request made after the position capture
 *       has confirmed (such a snapshot writes every row after everything the target applied).</li>
 * </ul>
 * Whether the sink wrote that target table before ({@code tidemark_columns}, {@code tidemark_table_positions}) only
 * words the line: dropped, or new under a changed mapping. The pending snapshots of missing tables the sink wrote
 * before are returned, so the caller lets the sink create them again.
 */
public final class TargetTableGone {
    private TargetTableGone() {
    }

    /**
     * What the start check read for one captured table.
     *
     * @param written         the sink recorded the target table before (it created or truncated it)
     * @param snapshotPending a snapshot of the table was requested after the position capture confirmed
     */
    public record TableState(TableId source, String target, String topic, boolean offsetsStored, boolean targetExists,
                             boolean written, boolean sourceHasRows, boolean snapshotPending) {
        boolean missing() {
            return offsetsStored && !targetExists && sourceHasRows;
        }
    }

    /** The outcome for the pipeline's tables. */
    public sealed interface Outcome {
    }

    /** The sink may start; {@code rebuilt} are missing target tables the sink wrote before that a pending snapshot fills. */
    public record Proceed(List<TableState> rebuilt) implements Outcome {
        public Proceed {
            rebuilt = List.copyOf(rebuilt);
        }
    }

    /** The sink must not start: {@code line} names every table at fault and the command that recovers. */
    public record Refuse(String line) implements Outcome {
    }

    /**
     * Decides for {@code tables}; {@code configLabel} is the pipeline file as the user named it, for the command.
     */
    public static Outcome decide(List<TableState> tables, String configLabel) {
        List<String> faults = new ArrayList<>();
        List<TableId> sources = new ArrayList<>();
        List<TableState> rebuilt = new ArrayList<>();
        for (TableState t : tables) {
            if (!t.missing()) {
                continue;
            }
            if (t.snapshotPending()) {
                if (t.written()) {
                    rebuilt.add(t);
                }
                continue;
            }
            sources.add(t.source());
            faults.add("table " + t.source() + ": target table " + t.target() + (t.written()
                    ? " was written by this sink but no longer exists"
                    : " does not exist (is it new in target.tables?)") + ", while the target stored offsets of topic " + t.topic()
                    + ": resuming would create it with later rows only");
        }
        if (faults.isEmpty()) {
            return new Proceed(rebuilt);
        }
        StringBuilder command = new StringBuilder("tidemark snapshot --config ").append(configLabel);
        sources.forEach(s -> command.append(" --table ").append(s));
        return new Refuse(String.join("; ", faults) + ". Nothing was applied. To rebuild it from the source, request its snapshot: `"
                + command + "`");
    }
}
