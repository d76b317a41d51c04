package dev.tidemark.tests.capture;

import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.reconcile.ComparisonResult;
import dev.tidemark.testkit.TableComparison;
import dev.tidemark.tests.sink.TargetDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A capture fixture bound to one target database (SQLite or PostgreSQL) whose captured table list can change between
 * runs: the topology ITs start and stop pipelines over it and compare target with source table by table, by key and
 * row checksum ({@link TableComparison}, independent of Tidemark's own reconcile).
 */
final class TopologyWorld {
    final CaptureFixture f;
    final TargetDatabase target;

    TopologyWorld(CaptureFixture f, TargetDatabase target) {
        this.f = f;
        this.target = target;
    }

    /** The pipeline capturing {@code tables} into the target. */
    PipelineConfig config(List<TableId> tables) {
        PipelineConfig base = f.config(tables, Map.of());
        String user = target.properties().getProperty("user");
        return new PipelineConfig(base.name(), base.source(), base.kafka(),
                new TargetConfig(target.jdbcUrl(), user, user == null ? Secret.empty() : Secret.of(target.properties().getProperty("password", "")),
                        500, SinkOptions.DEFAULT_POSITION_COLUMN, false), base.stateDir());
    }

    /** Missing, surplus and changed keys of one table (key column {@code id}). */
    ComparisonResult compare(TableId table) throws SQLException {
        try (Connection t = target.connect()) {
            return TableComparison.compare(f.source, table, List.of("id"), t, table.table(), target.quotes());
        }
    }

    boolean equal(TableId table) {
        try {
            return compare(table).equal();
        } catch (SQLException e) {
            return false; // the target table does not exist yet
        }
    }

    String summary(List<TableId> tables) {
        StringBuilder out = new StringBuilder();
        for (TableId t : tables) {
            try {
                out.append(t).append(": ").append(compare(t)).append("; ");
            } catch (SQLException e) {
                out.append(t).append(": ").append(e.getMessage()).append("; ");
            }
        }
        return out.toString();
    }

    void awaitEqual(Sidecar s, List<TableId> tables) {
        try {
            await("target equal to source " + tables).atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                    .failFast("pipeline failed", () -> s.failure().isPresent())
                    .until(() -> tables.stream().allMatch(this::equal));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("target not equal to source after 120 s: " + summary(tables), e);
        }
    }
}
