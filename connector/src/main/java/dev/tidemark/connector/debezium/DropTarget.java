package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.TargetAccess;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.JdbcEndpoints;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.jdbc.StoredOffsetsReader;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The part of {@code tidemark drop --topics} in the target: the pipeline's rows of {@code tidemark_offsets} for its
 * own topics and the rows of {@code tidemark_table_positions} for its own tables. With the topics deleted those
 * offsets would lie past the end of the re-created topics and stop the next {@code run}. The target's data rows and
 * every other pipeline's rows are left alone; a SQLite target that does not exist is not opened.
 */
final class DropTarget {
    static final String POSITIONS_TABLE = SinkOptions.TABLE_POSITIONS_TABLE;

    private DropTarget() {
    }

    static DropPlan.TargetLeftovers inspect(PipelineConfig config) {
        String url = config.target().jdbcUrl();
        if (JdbcEndpoints.sqliteFile(url).filter(f -> !Files.exists(f)).isPresent()) {
            return DropPlan.TargetLeftovers.NONE;
        }
        Dialect dialect = Databases.targetForUrl(url);
        try (Connection c = TargetAccess.open(config)) {
            Set<String> stored = StoredOffsetsReader.readIfPresent(c, dialect, config.name()).map(m -> m.keySet()).orElse(Set.of());
            List<String> topics = config.topics().stream().filter(stored::contains).toList();
            List<String> tables = new ArrayList<>();
            if (TargetAccess.tableExists(c, dialect, POSITIONS_TABLE)) {
                for (TableId t : config.source().tables()) {
                    String name = config.targetTableFor(t);
                    try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM " + dialect.quote(POSITIONS_TABLE) + " WHERE "
                            + dialect.quote("table_name") + " = ?")) {
                        ps.setString(1, name);
                        try (ResultSet rs = ps.executeQuery()) {
                            if (rs.next()) {
                                tables.add(name);
                            }
                        }
                    }
                }
            }
            return new DropPlan.TargetLeftovers(UrlMask.mask(url), topics, tables);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read what pipeline " + config.name() + " stored in target " + UrlMask.mask(url)
                    + ": " + e.getMessage() + " (check target.url, user and password, or drop without --topics)", e);
        }
    }

    /** Deletes the leftovers in one transaction; returns one line per item removed. */
    static List<String> clear(PipelineConfig config, DropPlan.TargetLeftovers leftovers) {
        List<String> done = new ArrayList<>();
        if (leftovers.empty()) {
            return done;
        }
        Dialect dialect = Databases.targetForUrl(config.target().jdbcUrl());
        try (Connection c = TargetAccess.open(config)) {
            c.setAutoCommit(false);
            try {
                for (String topic : leftovers.offsetTopics()) {
                    try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + dialect.quote(SinkOptions.OFFSETS_TABLE) + " WHERE "
                            + dialect.quote("pipeline") + " = ? AND " + dialect.quote("topic") + " = ?")) {
                        ps.setString(1, config.name());
                        ps.setString(2, topic);
                        ps.executeUpdate();
                    }
                    done.add("deleted stored offsets for topic " + topic + " in target " + leftovers.target());
                }
                for (String table : leftovers.positionTables()) {
                    try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + dialect.quote(POSITIONS_TABLE) + " WHERE "
                            + dialect.quote("table_name") + " = ?")) {
                        ps.setString(1, table);
                        ps.executeUpdate();
                    }
                    done.add("deleted table positions of " + table + " in target " + leftovers.target());
                }
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot delete what pipeline " + config.name() + " stored in target " + leftovers.target()
                    + ": " + e.getMessage() + " (nothing was deleted there; run tidemark drop again)", e);
        }
        return done;
    }
}
