package dev.tidemark.connector.pipeline;

import dev.tidemark.event.TableId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether the sink may resume into a target table that holds no rows although it must hold some (pure). Resuming from
 * the stored offsets then leaves out every row applied before: the user emptied the table by hand ({@code DELETE},
 * {@code TRUNCATE}) while the pipeline was stopped.
 *
 * <p>A captured table is at fault when all of these hold:
 * <ul>
 *   <li>its target table exists and holds no rows;</li>
 *   <li>the records of its topic the sink applied last (below the stored offsets) leave a row in it: some key's last
 *       applied record is an insert, update or snapshot read ({@link AppliedRows}). A table whose rows were all
 *       deleted at the source and applied is not at fault, whatever the source holds now;</li>
 *   <li>its source table holds rows (if it holds none, the records still to come leave the target equal to it);</li>
 *   <li>no snapshot of it is pending (a {@code tidemark snapshot --table} request made after the position capture has
 *       confirmed: it writes every row after everything the target applied).</li>
 * </ul>
 */
public final class TargetTableEmptied {
    private TargetTableEmptied() {
    }

    /**
     * What the start check read for one captured table whose topic has stored offsets.
     *
     * @param targetEmpty     the target table exists and holds no rows
     * @param rowsApplied     the records applied last leave a row in the target table ({@link AppliedRows})
     * @param snapshotPending a snapshot of the table was requested after the position capture confirmed
     */
    public record TableState(TableId source, String target, String topic, boolean targetEmpty, boolean rowsApplied,
                             boolean sourceHasRows, boolean snapshotPending) {
        boolean emptied() {
            return targetEmpty && rowsApplied && sourceHasRows && !snapshotPending;
        }
    }

    /**
     * The refusal naming every table at fault and the one command that refills them, or empty when none is;
     * {@code configLabel} is the pipeline file as the user named it.
     */
    public static Optional<String> refusal(List<TableState> tables, String configLabel) {
        List<String> faults = new ArrayList<>();
        StringBuilder command = new StringBuilder("tidemark snapshot --config ").append(configLabel);
        for (TableState t : tables) {
            if (t.emptied()) {
                faults.add("table " + t.source() + ": target table " + t.target() + " holds no rows, while the records of topic "
                        + t.topic() + " the target applied last leave rows in it and the source table holds rows"
                        + " (was it emptied by hand?): resuming would leave out every row applied before");
                command.append(" --table ").append(t.source());
            }
        }
        if (faults.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(String.join("; ", faults) + ". Nothing was applied. To refill it from the source, request its snapshot: `"
                + command + "`");
    }
}
