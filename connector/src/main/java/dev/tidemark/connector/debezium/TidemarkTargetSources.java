package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Identifiers;
import dev.tidemark.jdbc.JdbcEndpoints;
import dev.tidemark.jdbc.UsageException;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, before capture changes anything, which captured tables are another Tidemark pipeline's target tables (their
 * schema's {@code tidemark_columns} lists them) and applies {@link MetadataColumns}' decision: such a table's metadata
 * columns are added to the columns capture leaves out (one INFO line per table says so), and a table that is not a
 * Tidemark target but has a column of the sink's own name is refused ({@link UsageException}, one line per table).
 * Reads the catalog only. When the source cannot be reached the configuration is returned unchanged: the source's
 * preflight reports that.
 */
final class TidemarkTargetSources {
    private static final Logger log = LoggerFactory.getLogger(TidemarkTargetSources.class);

    private TidemarkTargetSources() {
    }

    /** {@code config} with the metadata columns of captured Tidemark targets excluded from capture. */
    static PipelineConfig excludingMetadata(PipelineConfig config) {
        SourceConfig s = config.source();
        Properties p = new Properties();
        p.setProperty("user", s.user());
        if (!s.password().isEmpty()) {
            p.setProperty("password", s.password().reveal());
        }
        List<SourceConfig.ColumnId> extra = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        try (Connection c = JdbcEndpoints.open(JdbcEndpoints.Side.SOURCE, s.jdbcUrl(), p)) {
            for (TableId t : s.tables()) {
                List<String> columns = SourcePreflight.columns(c, t).stream().map(CapturedColumn::column).toList();
                Set<String> excluded = new HashSet<>();
                s.excludeColumns().stream().filter(x -> x.table().equals(t)).forEach(x -> excluded.add(x.column()));
                MetadataColumns.Decision d = MetadataColumns.decide(t, columns, recorded(c, t), excluded,
                        config.target().positionColumn(), config.target().softDeletes());
                if (d instanceof MetadataColumns.Decision.Exclude e) {
                    log.info("table {} is a Tidemark target (listed in {}.{}): its metadata columns {} are not captured", t,
                            t.schema(), SinkOptions.COLUMNS_TABLE, e.columns());
                    e.columns().forEach(col -> extra.add(new SourceConfig.ColumnId(t, col)));
                } else if (d instanceof MetadataColumns.Decision.Refuse r) {
                    problems.add(r.problem());
                }
            }
        } catch (SQLException e) {
            log.debug("cannot read the source's Tidemark tables: {}", e.getMessage());
            return config;
        }
        if (!problems.isEmpty()) {
            throw new UsageException(String.join("; ", problems));
        }
        if (extra.isEmpty()) {
            return config;
        }
        List<SourceConfig.ColumnId> all = new ArrayList<>(s.excludeColumns());
        all.addAll(extra);
        SourceConfig widened = new SourceConfig(s.jdbcUrl(), s.user(), s.password(), s.slot(), s.publication(), s.tables(),
                s.setReplicaIdentityFull(), s.pollInterval(), all, s.heartbeatInterval(), s.debezium());
        return new PipelineConfig(config.name(), widened, config.kafka(), config.target(), config.stateDir(), config.observability());
    }

    /** The data columns {@code <schema>.tidemark_columns} records for {@code t}; empty when it lists none (or is absent). */
    private static Set<String> recorded(Connection c, TableId t) throws SQLException {
        String columnsTable = Identifiers.doubleQuoted(t.schema()) + "." + Identifiers.doubleQuoted(SinkOptions.COLUMNS_TABLE);
        try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            ps.setString(1, columnsTable);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    return Set.of();
                }
            }
        }
        Set<String> out = new LinkedHashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + Identifiers.doubleQuoted("column_name") + " FROM " + columnsTable
                + " WHERE " + Identifiers.doubleQuoted("table_name") + " = ?")) {
            ps.setString(1, t.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
