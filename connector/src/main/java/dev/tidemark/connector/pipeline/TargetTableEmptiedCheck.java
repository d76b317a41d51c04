package dev.tidemark.connector.pipeline;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.TargetAccess;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.UrlMask;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Before the sink of {@code run} or {@code sink} writes anything: refuses a target table emptied by hand while the
 * pipeline was stopped ({@link TargetTableEmptied}). Reads, for each captured table whose topic has a stored offset
 * above 0: whether its target table exists and holds rows; only for an empty one, the records the target applied last
 * ({@link AppliedRowsProbe}); only when those leave rows, the source ({@link SourceTableRead}). Writes nothing. A
 * missing target table is {@link TargetTableGoneCheck}'s.
 */
final class TargetTableEmptiedCheck {
    private TargetTableEmptiedCheck() {
    }

    /**
     * @param stored the target's stored offsets ({@link StoredOffsetsCheck#storedOffsets})
     * @throws IllegalStateException with one line naming the tables at fault and the command that refills them
     */
    static void check(PipelineConfig config, Map<String, Map<Integer, Long>> stored, String configLabel) {
        if (stored.isEmpty()) {
            return;
        }
        Dialect dialect = Databases.targetForUrl(config.target().jdbcUrl());
        List<TargetTableEmptied.TableState> states = new ArrayList<>();
        try (Connection target = TargetAccess.open(config)) {
            SourceTableRead source = new SourceTableRead(config);
            for (TableId t : config.source().tables()) {
                String topic = config.topicFor(t);
                String name = config.targetTableFor(t);
                Map<Integer, Long> offsets = stored.getOrDefault(topic, Map.of());
                if (offsets.values().stream().noneMatch(o -> o > 0) || !TargetAccess.tableExists(target, dialect, name)
                        || TargetAccess.hasRows(target, dialect, name)) {
                    continue;
                }
                boolean applied = AppliedRowsProbe.leaveARow(config.kafka().adminProperties(), topic, offsets);
                states.add(new TargetTableEmptied.TableState(t, name, topic, true, applied, applied && source.hasRows(t),
                        applied && source.snapshotPending(t)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot check the target tables of pipeline " + config.name() + " in target "
                    + UrlMask.mask(config.target().jdbcUrl()) + ": " + e.getMessage(), e);
        }
        TargetTableEmptied.refusal(states, configLabel == null ? "FILE" : configLabel).ifPresent(line -> {
            throw new IllegalStateException(line);
        });
    }
}
