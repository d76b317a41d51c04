package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At capture's start, once every check passed and before the engine runs: makes sure the signal table exists and is
 * published ({@link SnapshotSignals}), compares the captured tables with those of the last start ({@link TableSet},
 * {@link TableChanges}) and, when capture resumes, requests an incremental snapshot of every table added to
 * {@code source.tables} or dropped and re-created since; the signal lands in the WAL after the stored offsets, so
 * nothing committed while capture was stopped is lost. A removed table is no longer captured (the engine takes it out
 * of the publication); its target rows are kept and it is remembered as removed. Returns the tables' relations, which
 * {@link RelationWatcher} then watches, and the tables added since the last start (their topics' history starts with
 * their snapshot: {@link CaptureHistory}).
 */
final class CaptureTopology {
    private static final Logger log = LoggerFactory.getLogger(CaptureTopology.class);

    private CaptureTopology() {
    }

    /** What {@link #prepare} found: every captured table's relation, and the tables new to the pipeline. */
    record Prepared(Map<TableId, Long> relations, List<TableId> added) {
        Prepared {
            relations = Map.copyOf(relations);
            added = List.copyOf(added);
        }
    }

    static Prepared prepare(PipelineConfig config, SourceSlots slots, CaptureStart start) {
        try (Connection c = slots.connect()) {
            SnapshotSignals.ensure(c, config.source());
            log.info("capture {}: signal table {} (Tidemark's, on the source) takes `tidemark snapshot` requests", config.name(),
                    SnapshotSignals.table(config.source()));
            Map<TableId, Long> now = TableSet.relations(c, config.source());
            var stored = TableSet.read(config.offsetsFile());
            List<TableId> removed = new ArrayList<>();
            List<TableId> added = new ArrayList<>();
            stored.ifPresent(s -> s.removed().stream().filter(t -> !now.containsKey(t)).forEach(removed::add));
            boolean resumes = start instanceof CaptureStart.Resume || start instanceof CaptureStart.AcceptGap g && !g.discardOffsets();
            if (resumes && stored.isPresent()) {
                TableChanges changes = TableChanges.between(stored.get().captured(), now);
                changes.removed().stream().filter(t -> !removed.contains(t)).forEach(removed::add);
                report(config, changes);
                added.addAll(changes.added());
                if (!changes.toSnapshot().isEmpty()) {
                    String id = SnapshotSignals.request(c, config.source(), changes.toSnapshot());
                    log.info("capture {}: incremental snapshot {} requested for {}", config.name(), id, changes.toSnapshot());
                }
            }
            TableSet.write(config.offsetsFile(), new TableSet.Stored(now, removed));
            return new Prepared(now, added);
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("cannot prepare the captured tables of " + config.name() + ": " + e.getMessage(), e);
        }
    }

    private static void report(PipelineConfig config, TableChanges changes) {
        if (!changes.added().isEmpty()) {
            log.info("capture {}: {} new to the pipeline: snapshotting their rows while the other tables stream",
                    config.name(), changes.added());
        }
        if (!changes.recreated().isEmpty()) {
            log.warn("capture {}: {} dropped and re-created since the last start: snapshotting the new rows while the other tables "
                    + "stream; target rows the new table does not hold are removed when its snapshot ends", config.name(), changes.recreated());
        }
        if (!changes.removed().isEmpty()) {
            log.warn("capture {}: {} no longer in source.tables: no longer captured (their target rows are kept)",
                    config.name(), changes.removed());
        }
    }
}
