package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.PipelineConfigParser;
import dev.tidemark.testkit.TableComparison;
import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tidemark run --config pipeline.yaml} as its own process: SIGTERM drains, commits and exits 0. */
class SidecarSigtermIT {
    static final TableId T = new TableId("public", "orders");

    @TempDir
    Path dir;

    @Test
    void sigtermDrainsCommitsAndExitsZero() throws Exception {
        try (CdcFixture f = new CdcFixture("sigterm", dir, List.of(T))) {
            f.sql("CREATE TABLE public.orders (id int PRIMARY KEY, note text)",
                    "INSERT INTO orders SELECT g, 'n' || g FROM generate_series(1, 100) g");
            Path yaml = dir.resolve("pipeline.yaml");
            Files.writeString(yaml, String.join("\n",
                    "name: " + f.name,
                    "source:",
                    "  url: " + f.pg.jdbcUrl(f.database),
                    "  user: " + f.pg.user(),
                    "  password: ${IT_PG_PASSWORD:-}",
                    "  tables: [public.orders]",
                    "  slot: slot_" + f.name,
                    "  publication: pub_" + f.name,
                    "kafka:",
                    "  bootstrapServers: " + f.bootstrap,
                    "  topicPrefix: " + f.name,
                    "target:",
                    "  url: " + f.targetUrl("target.db"),
                    "stateDir: state",
                    ""));
            ProcessBuilder pb = new ProcessBuilder(ChildJvm.tidemark(List.of(), "run", "--config", yaml.toString()));
            pb.environment().put("IT_PG_PASSWORD", f.pg.password());
            pb.redirectErrorStream(true).redirectOutput(dir.resolve("run.log").toFile());
            Process p = pb.start();
            try {
                await("tidemark run applied the snapshot").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                        .failFast("tidemark run exited early", () -> !p.isAlive())
                        .until(() -> equal(f));
                f.sql("INSERT INTO orders SELECT g, 'more' FROM generate_series(101, 150) g", "DELETE FROM orders WHERE id <= 10");
                await("tidemark run applied the live changes").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                        .until(() -> equal(f));

                p.destroy(); // SIGTERM
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exited within 60 s after SIGTERM").isTrue();
                assertThat(p.exitValue()).as("exit code; log:\n" + Files.readString(dir.resolve("run.log"))).isZero();
            } finally {
                p.destroyForcibly();
            }
            PipelineConfig cfg = PipelineConfigParser.parse(yaml, Map.of("IT_PG_PASSWORD", f.pg.password())::get);
            Map<TopicPartition, Long> end = KafkaTopics.endOffsets(f.bootstrap, cfg.topicFor(T));
            for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
                assertThat(TargetDigest.stored(cfg, e.getKey())).as("offset stored for " + e.getKey()).isEqualTo(e.getValue());
            }
            assertThat(Files.exists(dir.resolve("state").resolve(f.name + ".offsets"))).as("Debezium offsets file").isTrue();

            // tidemark status reads the same state back: slot present and idle, nothing left to apply
            dev.tidemark.cli.status.PipelineStatus status = dev.tidemark.cli.status.StatusReader.read(cfg);
            assertThat(status.problems()).isEmpty();
            assertThat(status.slot().exists()).isTrue();
            assertThat(status.slot().active()).isFalse();
            assertThat(status.partitions()).hasSize(end.size()).allSatisfy(pt -> assertThat(pt.lag()).isZero());
            assertThat(status.partitions().stream().mapToLong(dev.tidemark.cli.status.PipelineStatus.Partition::endOffset).sum())
                    .isEqualTo(end.values().stream().mapToLong(Long::longValue).sum());
        }
    }

    private static boolean equal(CdcFixture f) {
        try (Connection t = DriverManager.getConnection(f.targetUrl("target.db"))) {
            return TableComparison.compare(f.source, T, List.of("id"), t, "orders", TableComparison.QuoteStyle.DOUBLE).equal();
        } catch (Exception e) {
            return false;
        }
    }
}
