package dev.tidemark.sink.jdbc;

import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.SinkException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;

/**
 * The sink's guard against two source tables meeting in one target table ({@link TargetTableNames}): remembers, for
 * one sink, which source table each target table was given to first, and refuses any other source table whose
 * target table compares equal to it. A configuration that names every captured table is checked before the sink
 * starts ({@link TargetTableNames#clashes}); this guard catches events of tables the sink was not told about (topics
 * of two pipelines, a Kafka Connect sink). Not thread-safe.
 */
public final class TargetTableClaims {
    private final TargetTableNames names;
    private final Map<String, TableId> owners = new HashMap<>();
    private TableId last;

    public TargetTableClaims(TargetTableNames names) {
        this.names = names;
    }

    /**
     * Claims {@code source}'s target table for it.
     *
     * @throws SinkException a {@link Failure.Fault} naming both source tables and the mapping that parts them, when
     *                       another source table has it
     */
    public void claim(TableId source) {
        if (source.equals(last)) {
            return; // the common case: a batch of one table's events
        }
        TableId owner = owners.putIfAbsent(TargetTableNames.key(names.of(source)), source);
        if (owner != null && !owner.equals(source)) {
            String wayOut = names.wayOut(Map.of(source, TargetTableNames.suggestion(source, new HashSet<>(owners.keySet()))));
            throw new SinkException("table " + source + ": target table " + names.of(source) + " already receives " + owner
                    + "; " + source + " and " + owner + " would merge into one table, so the sink stopped before writing it, "
                    + "offsets not advanced: " + wayOut + ", then start the sink again", null, new Failure.Fault(Failure.Cause.SCHEMA));
        }
        last = source;
    }
}
