package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.UsageException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * {@code tidemark snapshot}: asks a pipeline's capture to snapshot some of its tables again while the others stream,
 * by inserting an {@code execute-snapshot} signal into the pipeline's signal table ({@link SnapshotSignals}). A
 * running capture reads it from the WAL at once; a stopped one when it next resumes (the slot keeps the signal).
 * When a table's snapshot ends, the sink removes its target rows the snapshot no longer holds ({@link SnapshotSweep}).
 * Nothing else on the source is changed.
 */
public final class TableSnapshotRequest {
    /** What was requested: the signal's id, the tables, and whether capture held the slot (was running) then. */
    public record Outcome(String id, List<TableId> tables, boolean running) {
    }

    private TableSnapshotRequest() {
    }

    /**
     * @param configLabel the pipeline file as the user named it, for messages
     * @throws UsageException        a table that is not in {@code source.tables} (nothing written)
     * @throws IllegalStateException capture never started (no signal table yet), or the source failed
     */
    public static Outcome request(PipelineConfig config, List<TableId> tables, String configLabel) {
        for (TableId t : tables) {
            if (!config.source().tables().contains(t)) {
                throw new UsageException("table " + t + " is not captured by pipeline " + config.name() + " (source.tables: "
                        + config.source().tables() + "); add it to source.tables of " + configLabel
                        + " and restart: a table new to the pipeline is snapshotted at the start");
            }
        }
        SourceSlots slots = new SourceSlots(config.source());
        try (Connection c = slots.connect()) {
            if (!SnapshotSignals.exists(c, config.source())) {
                throw new IllegalStateException("pipeline " + config.name() + " has no signal table " + SnapshotSignals.table(config.source())
                        + " yet (capture never started with this version): run `tidemark run --config " + configLabel
                        + "`; a first start snapshots every table");
            }
            SnapshotSignals.ensure(c, config.source());
            boolean running = slots.read() instanceof SlotState.Present p && p.active();
            return new Outcome(SnapshotSignals.request(c, config.source(), tables), List.copyOf(tables), running);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot request the snapshot on source " + config.source().host() + ":" + config.source().port()
                    + "/" + config.source().database() + ": " + e.getMessage(), e);
        }
    }
}
