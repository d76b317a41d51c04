package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 3: {@code tidemark status} run before {@code run} made the broker auto-create the topics with one
 * partition (so {@code partitions: 2} was then silently ignored by {@code run}) and created an empty SQLite target
 * with a {@code tidemark_offsets} table, reporting a lag with exit 0. Now status is read-only (no topic, no file),
 * {@code run} refuses (exit 2) a topic whose partition count differs from the config, and status with Kafka down
 * says the lag is unknown.
 */
class StatusReadOnlyIT {
    static final TableId T = new TableId("public", "parcels");

    @TempDir
    Path dir;

    @Test
    void statusBeforeRunCreatesNoTopicAndNoTarget() throws Exception {
        try (CaptureFixture f = new CaptureFixture("status_ro", dir, List.of(T))) {
            f.sql("CREATE TABLE public.parcels (id int PRIMARY KEY, status text)", "INSERT INTO parcels VALUES (1, 'new')");
            Path yaml = f.writeYaml();
            Path log = dir.resolve("status.log");
            int code = f.runToEnd(log, "status", "--config", yaml.toString());
            String out = Files.readString(log);
            System.out.println("tidemark status before run, exit " + code + ":\n" + out);
            Path target = dir.resolve("target.db");
            assertThat(Files.exists(target)).as("status created the SQLite target " + target + "; output:\n" + out).isFalse();
            assertThat(topics(f)).as("topics on the broker after status; output:\n" + out).doesNotContainAnyElementsOf(f.config().topics());
            assertThat(out).contains(target + " does not exist yet").contains("topic " + f.config().topics().get(0)
                    + " does not exist yet").contains("total lag: unknown");
        }
    }

    @Test
    void runRefusesATopicWhosePartitionCountDiffersFromTheConfig() throws Exception {
        try (CaptureFixture f = new CaptureFixture("status_parts", dir, List.of(T))) {
            f.sql("CREATE TABLE public.parcels (id int PRIMARY KEY, status text)", "INSERT INTO parcels VALUES (1, 'new')");
            Path yaml = f.writeYaml(); // partitions: 2
            String topic = f.config().topics().get(0);
            try (Admin admin = admin(f)) {
                admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            Path log = dir.resolve("run.log");
            int code = f.runToEnd(log, "run", "--config", yaml.toString());
            String out = Files.readString(log);
            System.out.println("tidemark run on a 1-partition topic, exit " + code + ":\n" + out);
            assertThat(code).as("exit code; output:\n" + out).isEqualTo(2);
            List<String> errors = CaptureFixture.errorLines(log);
            assertThat(errors).as("one error line; output:\n" + out).hasSize(1);
            assertThat(errors.get(0)).contains("topic " + topic, "1 partition", "kafka.partitions: 2", "kafka.partitions: 1");
            assertThat(CaptureFixture.stackTraceLines(log)).isEmpty();
            assertThat(f.slotExists()).as("slot created before the refusal").isFalse();
        }
    }

    @Test
    void statusWithKafkaDownSaysTheLagIsUnknown() throws Exception {
        try (CaptureFixture f = new CaptureFixture("status_nokafka", dir, List.of(T))) {
            f.sql("CREATE TABLE public.parcels (id int PRIMARY KEY, status text)");
            Path yaml = f.writeYaml();
            int closedPort;
            try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
                closedPort = s.getLocalPort();
            }
            Files.writeString(yaml, Files.readString(yaml).replace(f.bootstrap, "127.0.0.1:" + closedPort));
            Path log = dir.resolve("status.log");
            int code = f.runToEnd(log, "status", "--config", yaml.toString());
            String out = Files.readString(log);
            System.out.println("tidemark status with Kafka down, exit " + code + ":\n" + out);
            assertThat(code).as("exit code; output:\n" + out).isEqualTo(3);
            assertThat(out).contains("total lag: unknown").doesNotContain("total lag: 0")
                    .contains("problem: kafka 127.0.0.1:" + closedPort);
            assertThat(out.lines().filter(l -> l.contains(" WARN ") || l.contains("org.apache.kafka")).toList())
                    .as("Kafka client log lines in status output").isEmpty();
        }
    }

    private static Set<String> topics(CaptureFixture f) throws Exception {
        try (Admin admin = admin(f)) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS);
        }
    }

    private static Admin admin(CaptureFixture f) {
        Properties p = new Properties();
        p.putAll(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, f.bootstrap));
        return Admin.create(p);
    }
}
