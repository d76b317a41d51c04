package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.reconcile.CanonicalValues;
import dev.tidemark.jdbc.ValueKind;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.sink.kafka.SinkSettings;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Replay from Kafka is idempotent on every target: the key+checksum digest of the target after a full replay
 * (from the earliest offset), a replay from explicit partition offsets and a replay from a timestamp equals the
 * digest before, and equals the state the events describe.
 */
abstract class AbstractReplayIT {
    static final TableId T = new TableId("public", "items");
    static final int PARTITIONS = 3;
    TargetDatabase target;
    String topic;
    String bootstrap;
    Map<Long, String> expected = new TreeMap<>();
    Instant midpoint;

    abstract TargetDatabase target() throws Exception;

    @BeforeEach
    void setUp() throws Exception {
        target = target();
        bootstrap = TestInfrastructure.kafkaBootstrap();
        topic = "replay_" + target.name() + "_" + System.nanoTime();
        TestTopics.create(bootstrap, topic, PARTITIONS);
        RowSchema s = SinkEvents.wide("id");
        EnvelopeEncoder enc = new EnvelopeEncoder("replay", "test", "db");
        Random random = new Random(7);
        List<java.util.concurrent.Future<?>> acks = new java.util.ArrayList<>();
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(TestTopics.ackedProducer(bootstrap), new ByteArraySerializer(), new ByteArraySerializer())) {
            p.partitionsFor(topic); // leader known before the first send
            for (int i = 1; i <= 3000; i++) {
                if (i == 1500) {
                    p.flush();
                    midpoint = Instant.now();
                }
                long id = random.nextInt(400);
                ChangeEvent e;
                if (random.nextInt(10) < 2 && expected.containsKey(id)) {
                    e = SinkEvents.delete(T, s, id, i);
                    expected.remove(id);
                } else {
                    e = SinkEvents.upsert(T, s, id, "v" + i, i);
                    expected.put(id, "v" + i);
                }
                ChangeEvent.Upsert keyOnly = SinkEvents.upsert(T, s, id, "", 0);
                byte[] key = enc.key(keyOnly, s);
                acks.add(p.send(new ProducerRecord<>(topic, key, enc.value(e, s, System.currentTimeMillis()))));
                if (e instanceof ChangeEvent.Delete) {
                    acks.add(p.send(new ProducerRecord<>(topic, key, null)));
                }
            }
        }
        for (var ack : acks) {
            ack.get(); // every record of the expected state really is in the topic
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        target.close();
    }

    /** How many records a replay from {@code replay} reads, computed independently of the sink. */
    private long recordsFrom(ReplayFrom replay) {
        try (var c = new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(Map.of("bootstrap.servers", bootstrap),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(), new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            List<org.apache.kafka.common.TopicPartition> tps = java.util.stream.IntStream.range(0, PARTITIONS)
                    .mapToObj(i -> new org.apache.kafka.common.TopicPartition(topic, i)).toList();
            Map<org.apache.kafka.common.TopicPartition, Long> end = c.endOffsets(tps);
            long total = 0;
            for (var tp : tps) {
                long start;
                if (replay instanceof ReplayFrom.Offsets o) {
                    start = Math.min(o.offsets().get(Integer.toString(tp.partition())), end.get(tp));
                } else if (replay instanceof ReplayFrom.Since since) {
                    var found = c.offsetsForTimes(Map.of(tp, since.timestamp().toEpochMilli())).get(tp);
                    start = found == null ? end.get(tp) : found.offset();
                } else {
                    start = 0;
                }
                total += end.get(tp) - start;
            }
            return total;
        }
    }

    private void consume(ReplayFrom replay) throws Exception {
        long records = recordsFrom(replay);
        SinkSettings settings = new SinkSettings(bootstrap, "replay-" + target.name(), List.of(topic), 400, Duration.ofMillis(100), replay, Map.of());
        KafkaSinkRunner runner = new KafkaSinkRunner(settings, JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults("replay-" + target.name())));
        Thread t = new Thread(runner);
        t.start();
        try {
            await("sink applied the " + records + " records of " + topic + " from " + replay).atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .failFast("sink failed", () -> runner.failure().isPresent())
                    .until(() -> runner.eventsApplied() >= records && storedTotal() == endTotal());
            assertThat(records).as("records replayed from " + replay).isPositive();
            assertThat(runner.eventsApplied()).as("records applied by the replay from " + replay).isEqualTo(records);
        } finally {
            runner.close();
        }
    }

    private long endTotal() {
        try (var c = new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(Map.of("bootstrap.servers", bootstrap),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(), new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            List<org.apache.kafka.common.TopicPartition> tps = java.util.stream.IntStream.range(0, PARTITIONS)
                    .mapToObj(i -> new org.apache.kafka.common.TopicPartition(topic, i)).toList();
            return c.endOffsets(tps).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private long storedTotal() throws Exception {
        try (JdbcChangeSink sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults("replay-" + target.name()))) {
            return sink.storedOffsets().getOrDefault(topic, Map.of()).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Key + checksum of every row (all columns, positions included). */
    private String digest() throws Exception {
        List<String> cols = List.of("id", "price", "ratio", "happened", "local_ts", "day", "at_time", "flag", "payload", "label",
                SinkOptions.DEFAULT_POSITION_COLUMN);
        List<ValueKind> kinds = List.of(ValueKind.INTEGER, ValueKind.DECIMAL, ValueKind.FLOAT, ValueKind.TIMESTAMPTZ, ValueKind.TIMESTAMP,
                ValueKind.DATE, ValueKind.TIME, ValueKind.BOOLEAN, ValueKind.BYTES, ValueKind.TEXT, ValueKind.TEXT);
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        Map<Long, String> labels = new TreeMap<>();
        try (Connection c = target.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT " + String.join(", ", cols.stream().map(target.quotes()::quote).toList()) + " FROM " + target.quotes().quote("items") + " ORDER BY 1")) {
            while (rs.next()) {
                for (int i = 0; i < cols.size(); i++) {
                    sha.update(CanonicalValues.read(rs, i + 1, kinds.get(i)).getBytes(StandardCharsets.UTF_8));
                    sha.update((byte) 0);
                }
                labels.put(rs.getLong(1), rs.getString(10));
            }
        }
        assertThat(labels).as("target equals the state the events describe").isEqualTo(expected);
        return HexFormat.of().formatHex(sha.digest());
    }

    @Test
    void everyReplayLeavesTheSameDigest() throws Exception {
        consume(new ReplayFrom.Stored());
        String before = digest();
        consume(new ReplayFrom.Earliest());
        assertThat(digest()).isEqualTo(before);
        consume(ReplayFrom.parse("0:10,1:500,2:0"));
        assertThat(digest()).isEqualTo(before);
        consume(new ReplayFrom.Since(midpoint));
        assertThat(digest()).isEqualTo(before);
    }
}
