package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.tests.ChildJvm;
import dev.tidemark.tests.TestInfrastructure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9, item 9: a {@code tidemark sink} restarted after {@code kill -9} resumes within seconds. The killed member's
 * session would hold its partitions until it expires (45 s by default): a restarted dynamic member has to wait that
 * long before the group rebalances. The pipeline file here sets no Kafka properties at all, so whatever makes the
 * restart fast must be the sink's own default. The restarted process must be assigned its partitions and apply new
 * records within {@value #RESUME_SECONDS} s of being started, well below the default session timeout.
 */
class SinkRestartAfterKillIT {
    static final int RESUME_SECONDS = 25;
    @TempDir
    Path dir;
    TargetDatabase target;
    SinkLoopFixture fx;
    String name;

    @BeforeEach
    void setUp() throws Exception {
        target = TargetDatabase.sqlite();
        name = "restart_" + System.nanoTime();
        fx = new SinkLoopFixture(TestInfrastructure.kafkaBootstrap(), name + ".public.items", 2, target, 9, 200);
    }

    @AfterEach
    void tearDown() throws Exception {
        target.close();
    }

    @Test
    void aSinkRestartedAfterKillNineResumesWithinSeconds() throws Exception {
        Path yaml = writePipeline();
        fx.produce(300);
        Process first = startSink(yaml, dir.resolve("first.log"));
        try {
            Map<Integer, Long> end = fx.endOffsets();
            awaitWhileAlive(first, dir.resolve("first.log"), "first run applies the topic to its end " + end, Duration.ofSeconds(90),
                    () -> fx.stored(name).equals(end));
        } finally {
            first.destroyForcibly(); // SIGKILL: the member never leaves the group
        }
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).as("first run died after SIGKILL").isTrue();
        assertThat(first.exitValue()).as("first run exit status (128 + SIGKILL)").isEqualTo(137);

        fx.produce(300);
        Map<Integer, Long> end = fx.endOffsets();
        Path log = dir.resolve("second.log");
        long restarted = System.nanoTime();
        Process second = startSink(yaml, log);
        try {
            awaitWhileAlive(second, log, "the restarted sink is assigned its partitions and applies the new records up to " + end,
                    Duration.ofSeconds(RESUME_SECONDS), () -> fx.stored(name).equals(end));
            System.out.println("SinkRestartAfterKillIT: the restarted sink applied the new records "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restarted) + " ms after its JVM was started");
            assertThat(fx.rows()).as("target equals the state the events describe").isEqualTo(fx.expected);
            second.destroy(); // SIGTERM: drain and exit 0
            assertThat(second.waitFor(60, TimeUnit.SECONDS)).as("second run stopped after SIGTERM").isTrue();
            assertThat(second.exitValue()).as("second run exit code; log:\n" + tail(log)).isZero();
        } finally {
            second.destroyForcibly();
        }
    }

    private Path writePipeline() throws IOException {
        Path yaml = dir.resolve("pipeline.yaml");
        Files.writeString(yaml, String.join("\n",
                "name: " + name,
                "source:                       # not contacted by `tidemark sink`; its tables name the topics",
                "  url: jdbc:postgresql://127.0.0.1:5432/unused",
                "  tables: [public.items]",
                "kafka:",
                "  bootstrapServers: " + fx.bootstrap,
                "  topicPrefix: " + name,
                "target:",
                "  url: " + target.jdbcUrl(),
                "  batchSize: 200",
                "stateDir: " + dir.resolve("state"),
                ""));
        return yaml;
    }

    private static Process startSink(Path yaml, Path log) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(ChildJvm.tidemark(List.of("-Xmx256m", "-XX:+UseSerialGC"),
                "sink", "--config", yaml.toString()));
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        return pb.start();
    }

    private static void awaitWhileAlive(Process p, Path log, String what, Duration atMost, Callable<Boolean> condition) {
        try {
            await(what).atMost(atMost).pollInterval(Duration.ofMillis(100))
                    .failFast("the sink process exited", () -> !p.isAlive())
                    .until(condition);
        } catch (ConditionTimeoutException | TerminalFailureException e) {
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
