package dev.tidemark.tests;

import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.reconcile.ComparisonResult;
import dev.tidemark.testkit.TableComparison;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One CDC scenario's world: its own source database, topic prefix, slot, state folder and SQLite target, plus the
 * sidecars it started (closed by {@link #close()}).
 */
final class CdcFixture implements AutoCloseable {
    final TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
    final String bootstrap = TestInfrastructure.kafkaBootstrap();
    final String database;
    final String name;
    final Path dir;
    final Connection source;
    final List<TableId> tables;
    private final List<Sidecar> started = new ArrayList<>();

    CdcFixture(String hint, Path dir, List<TableId> tables) throws SQLException {
        this.database = TestInfrastructure.newDatabase(hint);
        this.name = database;
        this.dir = dir;
        this.tables = List.copyOf(tables);
        this.source = pg.connect(database);
    }

    void sql(String... statements) throws SQLException {
        try (Statement s = source.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    String targetUrl(String file) {
        return "jdbc:sqlite:" + dir.resolve(file);
    }

    /** The pipeline config for any JDBC target. */
    PipelineConfig configFor(String pipeline, String targetUrl, String targetUser) {
        return new PipelineConfig(pipeline,
                new SourceConfig(pg.jdbcUrl(database), pg.user(), Secret.of(pg.password()), "slot_" + name, "pub_" + name,
                        tables, true, Duration.ofMillis(10)),
                new KafkaConfig(bootstrap, name, 2, (short) 1, Map.of()),
                new TargetConfig(targetUrl, targetUser, Secret.empty(), 500, SinkOptions.DEFAULT_POSITION_COLUMN, false),
                dir.resolve("state"));
    }

    /** The pipeline config: pipeline (group) name decides where offsets are stored, target file where rows go. */
    PipelineConfig config(String pipeline, String targetFile) {
        return new PipelineConfig(pipeline,
                new SourceConfig(pg.jdbcUrl(database), pg.user(), Secret.of(pg.password()), "slot_" + name, "pub_" + name,
                        tables, true, Duration.ofMillis(10)),
                new KafkaConfig(bootstrap, name, 2, (short) 1, Map.of()),
                new TargetConfig(targetUrl(targetFile), null, Secret.empty(), 500, SinkOptions.DEFAULT_POSITION_COLUMN, false),
                dir.resolve("state"));
    }

    Sidecar start(PipelineConfig config, boolean capture, boolean sink, ReplayFrom replay) {
        Sidecar s = Sidecar.start(config, capture, sink, replay);
        started.add(s);
        return s;
    }

    Sidecar startPipeline() {
        return start(config(name, "target.db"), true, true, new ReplayFrom.Stored());
    }

    /** Waits until the target table equals the source table by key and checksum; returns the last comparison. */
    ComparisonResult awaitEqual(Sidecar sidecar, TableId table, String targetFile, String... keyColumns) {
        AtomicReference<ComparisonResult> last = new AtomicReference<>();
        await("target " + targetFile + " table " + table.table() + " equal to source " + table)
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(200))
                .failFast("pipeline failed", () -> sidecar.failure().isPresent())
                .until(() -> {
                    try (Connection t = DriverManager.getConnection(targetUrl(targetFile))) {
                        ComparisonResult r = TableComparison.compare(source, table, List.of(keyColumns), t, table.table(),
                                TableComparison.QuoteStyle.DOUBLE);
                        last.set(r);
                        return r.equal();
                    } catch (SQLException e) {
                        return false; // target table not created yet
                    }
                });
        return last.get();
    }

    @Override
    public void close() throws SQLException {
        for (Sidecar s : started) {
            s.close();
        }
        try (Statement s = source.createStatement()) {
            s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = 'slot_" + name + "' AND NOT active");
        } finally {
            source.close();
        }
    }
}
