package dev.tidemark.connector.pipeline;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.TargetAccess;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Before the sink of {@code run} or {@code sink} writes anything: refuses a target that lacks a table the stored
 * offsets say was applied ({@link TargetTableGone}); stored offsets below which the topic's whole history leaves no
 * row ({@link AppliedRowsProbe#mayLeaveARow}) do not say so. Reads the target (which tables exist, which the sink recorded in
 * {@value SinkOptions#COLUMNS_TABLE} and {@value SinkOptions#TABLE_POSITIONS_TABLE}) and, only for a missing table, the
 * source (whether the table holds rows; the slot's confirmed position; the pipeline's signal table). A missing table
 * with a pending snapshot is let through: its {@value SinkOptions#COLUMNS_TABLE} rows are removed so the sink creates
 * it again instead of stopping as for a dropped table.
 */
final class TargetTableGoneCheck {
    private static final Logger log = LoggerFactory.getLogger(TargetTableGoneCheck.class);

    private TargetTableGoneCheck() {
    }

    /**
     * @param stored the target's stored offsets ({@link StoredOffsetsCheck#storedOffsets})
     * @throws IllegalStateException with one line naming the tables at fault and the command that recovers
     */
    static void check(PipelineConfig config, Map<String, Map<Integer, Long>> stored, String configLabel) {
        if (stored.isEmpty()) {
            return;
        }
        Dialect dialect = Databases.targetForUrl(config.target().jdbcUrl());
        try (Connection target = TargetAccess.open(config)) {
            List<TargetTableGone.TableState> states = states(config, stored, target, dialect);
            TargetTableGone.Outcome outcome = TargetTableGone.decide(states, configLabel == null ? "FILE" : configLabel);
            if (outcome instanceof TargetTableGone.Refuse r) {
                throw new IllegalStateException(r.line());
            }
            for (TargetTableGone.TableState t : ((TargetTableGone.Proceed) outcome).rebuilt()) {
                forget(target, dialect, t.target());
                log.warn("table {}: target table {} no longer exists; a snapshot of it was requested, so the sink creates it again and "
                        + "the snapshot fills it", t.source(), t.target());
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot check the target tables of pipeline " + config.name() + " in target "
                    + UrlMask.mask(config.target().jdbcUrl()) + ": " + e.getMessage(), e);
        }
    }

    private static List<TargetTableGone.TableState> states(PipelineConfig config, Map<String, Map<Integer, Long>> stored,
                                                            Connection target, Dialect dialect) throws SQLException {
        Set<String> written = new HashSet<>(tableNames(target, dialect, SinkOptions.COLUMNS_TABLE));
        written.addAll(tableNames(target, dialect, SinkOptions.TABLE_POSITIONS_TABLE));
        SourceTableRead source = new SourceTableRead(config);
        List<TargetTableGone.TableState> out = new ArrayList<>();
        for (TableId t : config.source().tables()) {
            String topic = config.topicFor(t);
            String name = config.targetTableFor(t);
            Map<Integer, Long> at = stored.getOrDefault(topic, Map.of());
            boolean exists = at.values().stream().noneMatch(o -> o > 0) || TargetAccess.tableExists(target, dialect, name);
            // stored offsets whose whole history leaves no row (a table empty at the source: only its snapshot's sweep)
            // are no sign of rows applied: the sink creates the table with its first row
            boolean missing = !exists && AppliedRowsProbe.mayLeaveARow(config.kafka().adminProperties(), topic, at);
            out.add(new TargetTableGone.TableState(t, name, topic, missing, exists, written.contains(name),
                    missing && source.hasRows(t), missing && source.snapshotPending(t)));
        }
        return out;
    }

    /** The {@code table_name} values of one of the sink's own tables, none when it does not exist. */
    private static List<String> tableNames(Connection c, Dialect dialect, String own) throws SQLException {
        List<String> names = new ArrayList<>();
        if (!TargetAccess.tableExists(c, dialect, own)) {
            return names;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT " + dialect.quote("table_name") + " FROM " + dialect.quote(own));
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private static void forget(Connection c, Dialect dialect, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + dialect.quote(SinkOptions.COLUMNS_TABLE) + " WHERE "
                + dialect.quote("table_name") + " = ?")) {
            ps.setString(1, table);
            ps.executeUpdate();
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }
}
