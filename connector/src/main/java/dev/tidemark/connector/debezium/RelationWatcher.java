package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * While capture runs, checks every {@code interval} on a connection of its own that each captured table is still the
 * relation capture started with. A table dropped and re-created under the same name falls out of the publication:
 * none of its new rows would arrive, silently. The watcher then hands {@code onRecreated} one line naming the table
 * and the command that recovers (a restart: {@link CaptureTopology} snapshots the new table and removes the old one's
 * rows from the target). A table that is missing (dropped, not yet re-created) is checked again next time.
 */
final class RelationWatcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RelationWatcher.class);

    private final Thread thread;
    private volatile boolean stop;

    private RelationWatcher(Thread thread) {
        this.thread = thread;
    }

    static RelationWatcher start(dev.tidemark.connector.config.PipelineConfig config, SourceSlots slots, Map<TableId, Long> relations,
                                 Duration interval, String configLabel, Consumer<String> onRecreated) {
        RelationWatcher[] self = new RelationWatcher[1];
        Thread t = new Thread(() -> {
            while (!self[0].stop) {
                try {
                    Thread.sleep(interval.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
                if (self[0].stop) {
                    return;
                }
                try (Connection c = slots.connect()) {
                    Optional<String> line = recreated(relations, TableSet.relations(c, config.source()), configLabel);
                    if (line.isPresent()) {
                        onRecreated.accept(line.get());
                        return;
                    }
                } catch (SQLException e) {
                    log.debug("capture {}: relation check failed: {}", config.name(), e.getMessage());
                }
            }
        }, "tidemark-relations-" + config.name());
        t.setDaemon(true);
        self[0] = new RelationWatcher(t);
        t.start();
        return self[0];
    }

    /** The one line for the first table whose relation changed, if any (pure). */
    static Optional<String> recreated(Map<TableId, Long> started, Map<TableId, Long> now, String configLabel) {
        for (Map.Entry<TableId, Long> e : started.entrySet()) {
            Long current = now.get(e.getKey());
            if (current != null && !current.equals(e.getValue())) {
                return Optional.of("capture stopped: table " + e.getKey() + " was dropped and re-created while capture ran (relation "
                        + e.getValue() + ", now " + current + "), so its new rows are not captured. Restart capture (`tidemark run --config "
                        + (configLabel == null ? "FILE" : configLabel) + "`): it snapshots the new table and removes the old table's rows "
                        + "from the target");
            }
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        stop = true;
        if (Thread.currentThread() != thread) { // the watcher itself closes capture after a change: it ends by returning
            thread.interrupt();
        }
    }
}
