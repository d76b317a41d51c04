package dev.tidemark.connector.pipeline;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.DroppedTableAdvice;
import java.util.Optional;

/**
 * The way on after a target table the sink wrote was dropped while the pipeline ran: rebuild it from the source with
 * the one-table snapshot of the captured table that fills it, as the start check does for a table dropped while the
 * pipeline was stopped ({@link TargetTableGone}). The snapshot must be requested before the sink starts again and
 * while no capture confirms past it: then the start check sees it pending, lets the sink create the table, and the
 * snapshot rewrites its rows and removes the ones the source no longer holds. A replay from the earliest offset is not
 * named: after an accepted gap, retention or a re-snapshot the topic's beginning is no complete history.
 *
 * <p>Pure.
 */
public final class DroppedTableWayOn {
    private DroppedTableWayOn() {
    }

    /** The captured table whose rows {@code config} writes to target table {@code target}, if one does. */
    public static Optional<TableId> sourceOf(PipelineConfig config, String target) {
        return config.source().tables().stream().filter(t -> config.targetTableFor(t).equals(target)).findFirst();
    }

    /**
     * The way on for {@code source}'s target table, the sink run by {@code command} ({@code run} or {@code sink}) from
     * {@code configLabel}; without a captured table, {@link DroppedTableAdvice#RESTORE}'s.
     */
    public static String text(String command, String configLabel, String target, Optional<TableId> source) {
        if (source.isEmpty()) {
            return DroppedTableAdvice.RESTORE.wayOn(target);
        }
        String snapshot = "`tidemark snapshot --config " + configLabel + " --table " + source.get() + "`";
        if ("sink".equals(command)) {
            return "rebuild it from the source: with the pipeline's capture stopped, request the table's snapshot (" + snapshot
                    + "), then start the sink again (`tidemark sink --config " + configLabel + "`) and capture after it (`tidemark capture "
                    + "--config " + configLabel + "`), which takes the snapshot: the sink creates the table again and the snapshot fills it";
        }
        return "rebuild it from the source: request the table's snapshot (" + snapshot + "), then start the pipeline again (`tidemark run "
                + "--config " + configLabel + "`): the sink creates the table again and the snapshot fills it";
    }

    /** The sink's {@link DroppedTableAdvice} for {@code config} run by {@code command} from {@code configLabel}. */
    public static DroppedTableAdvice advice(PipelineConfig config, String command, String configLabel) {
        return target -> text(command, configLabel, target, sourceOf(config, target));
    }
}
