package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.reconcile.ComparisonResult;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;

/**
 * Issue 9 item 15: rows that share one LSN (a {@code COPY} and a multi-row {@code INSERT … SELECT} write many rows per
 * WAL record) and a capture restarted inside a large transaction, both known open issues of Debezium 3.6.1. One
 * transaction copies 100,000 rows, inserts 10,000 more with one {@code INSERT … SELECT} and updates 20,000; a second
 * one copies 10,000 and deletes every tenth row. {@code tidemark capture} runs as a child JVM and is killed with
 * {@code kill -9} {@value #KILLS} times while it streams them (each time once it has sent another {@value #STEP}
 * records), then restarted from its stored offsets. After the drain the target must equal the source by key and
 * checksum: 0 missing, 0 surplus, 0 changed.
 */
class LargeTransactionCaptureKillIT {
    static final TableId T = new TableId("public", "bulk_items");
    static final int KILLS = 3;
    static final long STEP = 25_000;

    @TempDir
    Path dir;

    @Test
    void copyOfAHundredThousandRowsSurvivesKillNineOfCapture() throws Exception {
        try (CdcFixture f = new CdcFixture("bulkkill", dir, List.of(T))) {
            f.sql("CREATE TABLE public.bulk_items (id bigint PRIMARY KEY, label text NOT NULL, n int NOT NULL)",
                    "ALTER TABLE public.bulk_items REPLICA IDENTITY FULL",
                    "INSERT INTO bulk_items SELECT g, 'seed ' || g, g FROM generate_series(1, 1000) g");
            PipelineConfig base = f.config(f.name, "target.db");
            PipelineConfig config = new PipelineConfig(base.name(), base.source(),
                    new KafkaConfig(f.bootstrap, f.name, 3, (short) 1, Map.of()),
                    new TargetConfig(base.target().jdbcUrl(), null, Secret.empty(), 2000, SinkOptions.DEFAULT_POSITION_COLUMN, false),
                    dir.resolve("state"));
            String topic = config.topicFor(T);
            Path yaml = writePipeline(f, config);

            Process capture = startCapture(yaml, dir.resolve("capture-0.log"));
            List<Process> started = new ArrayList<>(List.of(capture));
            try {
                awaitWhileAlive(capture, dir.resolve("capture-0.log"), "snapshot of " + T + " on " + topic,
                        () -> Drain.topicSize(f.bootstrap, topic) >= 1000);
                Sidecar sink = f.start(config, false, true, new ReplayFrom.Stored());

                try (Connection c = f.pg.connect(f.database)) {
                    c.setAutoCommit(false);
                    copy(c, 100_001, 200_000);
                    exec(c, "INSERT INTO bulk_items SELECT g, 'multi ' || g, g FROM generate_series(200001, 210000) g");
                    exec(c, "UPDATE bulk_items SET label = 'updated', n = -n WHERE id BETWEEN 120001 AND 140000");
                    c.commit();
                    copy(c, 210_001, 220_000);
                    exec(c, "DELETE FROM bulk_items WHERE id % 10 = 0 AND id > 100000");
                    c.commit();
                }

                for (int kill = 1; kill <= KILLS; kill++) {
                    long threshold = Drain.topicSize(f.bootstrap, topic) + STEP;
                    Path log = dir.resolve("capture-" + (kill - 1) + ".log");
                    awaitWhileAlive(capture, log, "capture run " + (kill - 1) + " sent " + threshold + " records to " + topic,
                            () -> Drain.topicSize(f.bootstrap, topic) >= threshold);
                    capture.destroyForcibly(); // SIGKILL
                    assertThat(capture.waitFor(30, TimeUnit.SECONDS)).as("capture run " + (kill - 1) + " died").isTrue();
                    assertThat(capture.exitValue()).as("capture exit status (128 + SIGKILL)").isEqualTo(137);
                    System.out.println("killed capture run " + (kill - 1) + " at " + Drain.topicSize(f.bootstrap, topic) + " records");
                    capture = startCapture(yaml, dir.resolve("capture-" + kill + ".log"));
                    started.add(capture);
                }

                ComparisonResult result = Drain.compareAfterDrain(f.source, T, f.targetUrl("target.db"), List.of("id"),
                        Duration.ofSeconds(240), () -> sink.failure().isPresent());
                System.out.println("after " + KILLS + " kills of capture: " + Drain.topicSize(f.bootstrap, topic) + " records on "
                        + topic + "; " + (result == null ? "no comparison" : result.summary()));
                assertThat(sink.failure()).as("sink failure").isEmpty();
                assertThat(capture.isAlive()).as("last capture run alive; log:\n" + tail(dir.resolve("capture-" + KILLS + ".log"))).isTrue();
                assertThat(result).as("comparison").isNotNull();
                assertThat(result.missing()).as("rows lost: " + result.summary()).isEmpty();
                assertThat(result.surplus()).as("surplus rows: " + result.summary()).isEmpty();
                assertThat(result.changed()).as("rows with a wrong checksum: " + result.summary()).isEmpty();
            } finally {
                for (Process p : started) {
                    p.destroyForcibly();
                }
            }
        }
    }

    private static void copy(Connection c, long from, long to) throws SQLException, IOException {
        StringBuilder rows = new StringBuilder();
        for (long id = from; id <= to; id++) {
            rows.append(id).append("\tcopied ").append(id).append('\t').append(id % 1000).append('\n');
        }
        c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY bulk_items (id, label, n) FROM STDIN", new StringReader(rows.toString()));
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private Path writePipeline(CdcFixture f, PipelineConfig config) throws IOException {
        Path yaml = dir.resolve("pipeline.yaml");
        Files.writeString(yaml, String.join("\n",
                "name: " + config.name(),
                "source:",
                "  url: " + config.source().jdbcUrl(),
                "  user: " + config.source().user(),
                "  password: ${BULK_SOURCE_PASSWORD:-}",
                "  slot: " + config.source().slot(),
                "  publication: " + config.source().publication(),
                "  tables: [" + T + "]",
                "kafka:",
                "  bootstrapServers: " + f.bootstrap,
                "  topicPrefix: " + config.kafka().topicPrefix(),
                "  partitions: " + config.kafka().partitions(),
                "target:",
                "  url: " + config.target().jdbcUrl(),
                "stateDir: " + config.stateDir(),
                ""));
        return yaml;
    }

    private static Process startCapture(Path yaml, Path log) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(ChildJvm.tidemark(List.of("-Xmx512m", "-XX:+UseSerialGC"),
                "capture", "--config", yaml.toString()));
        pb.environment().put("BULK_SOURCE_PASSWORD", TestInfrastructure.postgres().password());
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        return pb.start();
    }

    private static void awaitWhileAlive(Process p, Path log, String what, java.util.concurrent.Callable<Boolean> condition) {
        try {
            await(what).atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(100))
                    .failFast("the capture process exited", () -> !p.isAlive())
                    .until(condition);
        } catch (ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
            throw new AssertionError(e.getMessage() + "\n--- last lines of " + log + " ---\n" + tail(log), e);
        }
    }


    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
