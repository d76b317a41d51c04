package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows of several megabytes (a document in a text column) are ordinary in operational databases. With REPLICA
 * IDENTITY FULL an update of such a row carries it twice. Kafka's defaults refuse a record over 1 MB (producer
 * {@code max.request.size}, broker {@code message.max.bytes}); capture must carry these rows to the target, and a row
 * above the limit it is given must stop it with one line naming the row and the way on.
 */
class LargeRowIT {
    static final TableId T = new TableId("public", "big_docs");
    @TempDir
    Path dir;

    @Test
    void rowsOfSeveralMegabytesReachTheTargetThroughSnapshotAndStreaming() throws Exception {
        try (CaptureFixture f = new CaptureFixture("bigrows", dir, List.of(T))) {
            f.sql("CREATE TABLE public.big_docs (id int PRIMARY KEY, body text)",
                    "INSERT INTO big_docs VALUES (1, 'small'), (2, repeat('a', 3000000))");
            // the topic exists already with Kafka's default record limit (1 MB), as a topic made by hand or before
            String topic = f.config().topics().get(0);
            try (Admin admin = Admin.create(f.config().kafka().adminProperties())) {
                admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1)
                        .configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "1048588")))).all().get(30, TimeUnit.SECONDS);
            }
            Sidecar s = f.start(true, true);
            f.awaitTargetEqual(s, "id");
            f.sql("UPDATE big_docs SET body = repeat('b', 3000000) WHERE id = 1",
                    "INSERT INTO big_docs VALUES (3, repeat('c', 5000000))",
                    "DELETE FROM big_docs WHERE id = 2",
                    "UPDATE big_docs SET body = repeat('d', 4000000) WHERE id = 3");
            f.awaitTargetEqual(s, "id");
            assertThat(f.targetEqualsSource("id")).as(f.compareSummary("id")).isTrue();
            assertThat(s.failure()).isEmpty();
            try (Admin admin = Admin.create(f.config().kafka().adminProperties())) {
                ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
                long limit = Long.parseLong(admin.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r)
                        .get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG).value());
                assertThat(limit).as("the topic's max.message.bytes, raised by capture").isGreaterThanOrEqualTo(16L << 20);
            }
        }
    }

    /**
     * Rows of 4 MB of text that compresses about as well as documents do (random UUIDs), snapshot, then every row
     * updated twice while the pipeline runs (8 MB events with REPLICA IDENTITY FULL): about 500 MB of change events
     * through {@code ./tidemark run} as a user starts it, at the launcher's default heap and JVM options.
     */
    @Test
    void largeRowsAreSnapshotAndStreamedWithinTheLaunchersHeap() throws Exception {
        String doc = "(SELECT string_agg(gen_random_uuid()::text, '') FROM generate_series(1, 116000))";
        try (CaptureFixture f = new CaptureFixture("bigbacklog", dir, List.of(T))) {
            f.sql("CREATE TABLE public.big_docs (id int PRIMARY KEY, body text)",
                    "INSERT INTO big_docs SELECT g, " + doc + " FROM generate_series(1, 24) g");
            Path yaml = f.writeYaml();
            Path log = dir.resolve("run.log");
            Process run = f.spawnLauncher(log, "run", "--config", yaml.toString());
            awaitTargetEqual(f, run, log);
            f.sql("UPDATE big_docs SET body = " + doc, "UPDATE big_docs SET body = " + doc);
            awaitTargetEqual(f, run, log);
            assertThat(CaptureFixture.errorLines(log)).isEmpty();
        }
    }

    private static void awaitTargetEqual(CaptureFixture f, Process run, Path log) {
        try {
            await("target equal to source").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500))
                    .failFast("tidemark run exited", () -> !run.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
        } catch (org.awaitility.core.TerminalFailureException | org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "\n--- last lines of the run's log ---\n" + CaptureFixture.tail(log), e);
        }
    }

    @Test
    void aRowAboveTheConfiguredLimitStopsCaptureNamingKeyTopicSizeAndTheWayOn() throws Exception {
        try (CaptureFixture f = new CaptureFixture("toobig", dir, List.of(T))) {
            f.sql("CREATE TABLE public.big_docs (id int PRIMARY KEY, body text)",
                    "INSERT INTO big_docs VALUES (1, 'small')");
            PipelineConfig cfg = f.config(Map.of("max.request.size", "1048576"));
            try (Sidecar s = Sidecar.start(cfg, true, true, new ReplayFrom.Stored())) {
                f.awaitTargetEqual(s, "id");
                f.sql("INSERT INTO big_docs VALUES (2, 'two')", "INSERT INTO big_docs VALUES (3, md5('x') || repeat('z', 2000000))");
                await("capture stops on the 2 MB row").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .until(() -> s.failure().isPresent());
                String message = s.failure().get().getMessage();
                assertThat(message).doesNotContain("\n").contains("Struct{id=3}").contains(cfg.topics().get(0))
                        .contains("max.request.size").contains("1048576").contains("source.excludeColumns");
                try (Connection t = DriverManager.getConnection(f.targetUrl()); Statement st = t.createStatement();
                     ResultSet rs = st.executeQuery("SELECT count(*) FROM \"big_docs\" WHERE \"id\" = 1")) {
                    assertThat(rs.next() && rs.getInt(1) == 1).as("the row applied before stays").isTrue();
                }
            }
        }
    }
}
