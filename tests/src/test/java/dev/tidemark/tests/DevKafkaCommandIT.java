package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 12: {@code tidemark dev-kafka --port N --dir D} runs a single-node broker in the foreground (a topic
 * can be created on it); Ctrl-C stops it, deletes D and exits 130. A port in use is refused with exit 2.
 */
class DevKafkaCommandIT {
    @TempDir
    Path dir;

    private Process spawn(Path log, String... args) throws Exception {
        List<String> cmd = ChildJvm.tidemark(List.of("-Xmx256m"), "dev-kafka");
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    @Test
    void aForegroundBrokerThatCtrlCStopsAndCleans() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path data = dir.resolve("kafka-data");
        Path log = dir.resolve("dev-kafka.log");
        Process p = spawn(log, "--port", Integer.toString(port), "--dir", data.toString());
        try {
            await("dev-kafka ready").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .failFast("dev-kafka exited: " + log, () -> !p.isAlive())
                    .until(() -> Files.readString(log).contains("Kafka on 127.0.0.1:" + port));
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port))) {
                admin.createTopics(List.of(new NewTopic("dev_kafka_it", 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
                assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains("dev_kafka_it");
            }
            assertThat(data).isDirectory();

            Path busy = dir.resolve("busy.log");
            Process second = spawn(busy, "--port", Integer.toString(port));
            assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
            System.out.println("second dev-kafka on the same port, exit " + second.exitValue() + ": " + Files.readString(busy));
            assertThat(second.exitValue()).isEqualTo(2);
            assertThat(Files.readString(busy)).contains("port " + port + " on 127.0.0.1 is in use");

            new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("stopped within 60 s of Ctrl-C").isTrue();
            String out = Files.readString(log);
            System.out.println("dev-kafka, exit " + p.exitValue() + ":\n" + out);
            assertThat(p.exitValue()).isEqualTo(130);
            assertThat(out).contains("tidemark: stopped (Ctrl-C): Kafka stopped and " + data + " deleted").doesNotContain("\tat ");
            assertThat(data).doesNotExist();
        } finally {
            p.destroyForcibly();
        }
    }
}
