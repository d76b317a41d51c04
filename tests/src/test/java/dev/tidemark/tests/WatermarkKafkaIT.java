package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.watermark.Cursor;
import dev.tidemark.connector.watermark.KafkaDelivery;
import dev.tidemark.connector.watermark.RunResult;
import dev.tidemark.connector.watermark.WatermarkConfig;
import dev.tidemark.connector.watermark.WatermarkJob;
import dev.tidemark.connector.watermark.WatermarkPoller;
import dev.tidemark.connector.watermark.WatermarkTable;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.sink.kafka.SinkSettings;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka mode: watermark runs produce the same Debezium envelopes as capture ({@code op r}, {@code source.connector
 * watermark}, the cursor as position; soft deletes as {@code d} + tombstone), the ordinary sink writer applies them,
 * and the watermark is stored only after Kafka acknowledged every record.
 */
class WatermarkKafkaIT {
    static final ObjectMapper JSON = new ObjectMapper();
    static final TableId ITEMS = new TableId("main", "items");

    @TempDir
    Path dir;

    @Test
    void eventsGoThroughKafkaToTheSinkWriter_watermarkStoredAfterAcks() throws Exception {
        String bootstrap = TestInfrastructure.kafkaBootstrap();
        String prefix = "wm" + ProcessHandle.current().pid() + "x" + System.nanoTime() % 100000;
        Path source = dir.resolve("source.db");
        try (Connection src = DriverManager.getConnection("jdbc:sqlite:" + source); Statement s = src.createStatement()) {
            s.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, modified TIMESTAMP NOT NULL, name TEXT, deleted BOOLEAN NOT NULL DEFAULT 0)");
            s.execute("CREATE INDEX ix_items_modified ON items (modified, id)");
            for (int i = 1; i <= 30; i++) {
                s.execute("INSERT INTO items (id, modified, name) VALUES (" + i + ", '2024-01-01T10:00:" + String.format("%02d", i) + ".5Z', 'item " + i + "')");
            }
            WatermarkTable t = WatermarkTable.of(ITEMS, List.of("id"), new Cursor.TimestampId("modified", "id"))
                    .withSoftDelete("deleted").withChunkSize(7).withSettle(Duration.ZERO);
            WatermarkConfig cfg = new WatermarkConfig("kafka-it", new WatermarkConfig.Endpoint("jdbc:sqlite:" + source, null, null),
                    null, new WatermarkConfig.Endpoint("jdbc:sqlite:" + dir.resolve("control.db"), null, null),
                    new KafkaConfig(bootstrap, prefix, 2, (short) 1, Map.of()), List.of(t), null);
            String topic = KafkaDelivery.topic(prefix, ITEMS);
            Path target = dir.resolve("target.db");
            KafkaSinkRunner sink = new KafkaSinkRunner(new SinkSettings(bootstrap, prefix + "-sink", List.of(topic), 500,
                    Duration.ofMillis(100), new ReplayFrom.Stored(), Map.of()),
                    JdbcChangeSink.open("jdbc:sqlite:" + target, new Properties(), SinkOptions.defaults(prefix + "-sink")));
            try (WatermarkJob job = WatermarkJob.open(cfg, null)) {
                RunResult r1 = job.run(t, WatermarkPoller.Request.incremental());
                assertThat(r1.rows()).isEqualTo(30);
                assertThat(r1.chunks()).isEqualTo(5);
                assertThat(job.control().read(t.name()).orElseThrow().watermark()).isEqualTo(r1.watermark());

                List<JsonNode> values = read(bootstrap, topic, 30);
                assertThat(values).allSatisfy(v -> {
                    assertThat(v.path("payload").path("op").asText()).isEqualTo("r");
                    assertThat(v.path("payload").path("source").path("connector").asText()).isEqualTo("watermark");
                    assertThat(v.path("payload").path("source").path("table").asText()).isEqualTo("items");
                });
                JsonNode first = values.stream().filter(v -> v.path("payload").path("after").path("id").asLong() == 7).findFirst().orElseThrow();
                assertThat(first.path("payload").path("source").path("cursor").asText())
                        .isEqualTo("2024-01-01T10:00:07.500000000Z|00000000000000000007");

                Thread sinkThread = new Thread(sink, "wm-it-sink");
                sinkThread.start();
                await("sink applied the 30 rows").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                        .failFast("sink failed", () -> sink.failure().isPresent())
                        .until(() -> keysOrEmpty(target).size() == 30);

                s.execute("UPDATE items SET deleted = 1, modified = '2024-01-01T11:00:00.0Z' WHERE id = 3");
                s.execute("INSERT INTO items (id, modified, name) VALUES (31, '2024-01-01T11:00:00.0Z', 'new')");
                RunResult r2 = job.run(t, WatermarkPoller.Request.incremental());
                assertThat(r2.rows()).isEqualTo(2);
                assertThat(r2.deletes()).isEqualTo(1);
                List<Long> expected = new ArrayList<>(LongStream.rangeClosed(1, 31).boxed().toList());
                expected.remove(Long.valueOf(3));
                await("sink applied the delete and the insert").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                        .failFast("sink failed", () -> sink.failure().isPresent())
                        .until(() -> new ArrayList<>(keysOrEmpty(target)).equals(expected));
                List<String> ops = KafkaTopics.opsSince(bootstrap, beginning(bootstrap, topic));
                assertThat(ops).hasSize(33).containsOnly("r", "d", "tombstone");
                assertThat(ops.stream().filter("d"::equals)).hasSize(1);
                assertThat(ops.stream().filter("tombstone"::equals)).hasSize(1);
            } finally {
                sink.close();
            }
        }
    }

    @Test
    void whenKafkaDoesNotAcknowledge_theWatermarkIsNotStored() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Path source = dir.resolve("source.db");
        try (Connection src = DriverManager.getConnection("jdbc:sqlite:" + source); Statement s = src.createStatement()) {
            s.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL)");
            s.execute("INSERT INTO items VALUES (1, 10), (2, 20)");
        }
        WatermarkTable t = WatermarkTable.of(ITEMS, List.of("id"), new Cursor.Id("seq"));
        Map<String, String> fast = Map.of("max.block.ms", "1500", "request.timeout.ms", "1000", "default.api.timeout.ms", "1500",
                "delivery.timeout.ms", "2000", "linger.ms", "0");
        WatermarkConfig cfg = new WatermarkConfig("kafka-down", new WatermarkConfig.Endpoint("jdbc:sqlite:" + source, null, null),
                null, new WatermarkConfig.Endpoint("jdbc:sqlite:" + dir.resolve("control.db"), null, null),
                new KafkaConfig("127.0.0.1:" + closedPort, "down", 1, (short) 1, fast), List.of(t), null);
        try (WatermarkJob job = WatermarkJob.open(cfg, null)) {
            assertThatThrownBy(() -> job.run(t, WatermarkPoller.Request.incremental())).isInstanceOf(Exception.class);
            assertThat(job.control().read(t.name())).as("no watermark without acknowledgements").isEmpty();
        }
    }

    private static java.util.Set<Long> keysOrEmpty(Path target) {
        try {
            return WatermarkJobs.keys(target, "items", "id");
        } catch (java.sql.SQLException e) {
            return java.util.Set.of();
        }
    }

    private static Map<TopicPartition, Long> beginning(String bootstrap, String topic) {
        Map<TopicPartition, Long> from = KafkaTopics.endOffsets(bootstrap, topic);
        from.replaceAll((tp, end) -> 0L);
        return from;
    }

    private static List<JsonNode> read(String bootstrap, String topic, int n) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = KafkaTopics.consumer(bootstrap)) {
            List<TopicPartition> tps = KafkaTopics.endOffsets(bootstrap, topic).keySet().stream().toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (out.size() < n && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    if (r.value() != null) {
                        out.add(JSON.readTree(r.value()));
                    }
                }
            }
        }
        assertThat(out).hasSize(n);
        return out;
    }
}
