package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.sink.kafka.SinkSettings;
import dev.tidemark.tests.TestInfrastructure;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Scaling out on Kafka: two sink writers in one consumer group share a topic's partitions while events keep
 * arriving. A second member joins mid-stream (a rebalance moves partitions to it) and later the first one leaves
 * (its partitions move back). Each member hands a partition over only after its batch in flight has committed,
 * and takes one over at the target's stored offset, so across both members every record is applied exactly once
 * and the target ends equal to the state the events describe.
 */
abstract class AbstractScaleOutIT {
    static final TableId T = new TableId("public", "items");
    static final int PARTITIONS = 4;
    static final int PER_PHASE = 2000;
    TargetDatabase target;
    String topic;
    String bootstrap;
    String group;
    SinkLoopFixture events;
    long produced;

    abstract TargetDatabase target() throws Exception;

    @BeforeEach
    void setUp() throws Exception {
        target = target();
        bootstrap = TestInfrastructure.kafkaBootstrap();
        topic = "scale_" + target.name() + "_" + System.nanoTime();
        group = "scale-" + target.name() + "-" + System.nanoTime();
        events = new SinkLoopFixture(bootstrap, topic, PARTITIONS, target, 11, 600);
    }

    @AfterEach
    void tearDown() throws Exception {
        target.close();
    }

    /** Produces one phase of changes (upserts and deletes with their tombstones) and waits for every ack. */
    private void producePhase() throws Exception {
        produced += events.produce(PER_PHASE);
    }

    private KafkaSinkRunner start(String member) throws Exception {
        SinkSettings settings = new SinkSettings(bootstrap, group, List.of(topic), 250, Duration.ofMillis(100),
                new ReplayFrom.Stored(), Map.of("client.id", member));
        KafkaSinkRunner runner = new KafkaSinkRunner(settings,
                JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults(group)));
        new Thread(runner, "sink-" + member).start();
        return runner;
    }

    private long storedTotal() throws Exception {
        try (JdbcChangeSink sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults(group))) {
            return sink.storedOffsets().getOrDefault(topic, Map.of()).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private long endTotal() {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = IntStream.range(0, PARTITIONS).mapToObj(i -> new TopicPartition(topic, i)).toList();
            return c.endOffsets(tps).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private Map<Long, String> targetRows() throws Exception {
        Map<Long, String> rows = new TreeMap<>();
        try (Connection c = target.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT " + target.quotes().quote("id") + ", " + target.quotes().quote("label") + " FROM " + target.quotes().quote("items"))) {
            while (rs.next()) {
                rows.put(rs.getLong(1), rs.getString(2));
            }
        }
        return rows;
    }

    @Test
    void twoMembersShareTheTopicAndHandOverExactly() throws Exception {
        producePhase();
        KafkaSinkRunner first = start("first");
        KafkaSinkRunner second = null;
        try {
            await("first member applies some of phase 1").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .failFast("first member failed", () -> first.failure().isPresent())
                    .until(() -> first.eventsApplied() > 0);
            second = start("second");
            KafkaSinkRunner joined = second;
            await("the group rebalances: partitions move to the second member").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(20))
                    .failFast("a member failed", () -> first.failure().isPresent() || joined.failure().isPresent())
                    .until(() -> !joined.assignment().isEmpty() && first.assignment().size() + joined.assignment().size() == PARTITIONS);
            assertThat(first.assignment()).as("partitions left with the first member").isNotEmpty().doesNotContainAnyElementsOf(joined.assignment());
            producePhase();
            await("the second member is assigned partitions and applies events").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(50))
                    .failFast("a member failed", () -> first.failure().isPresent() || joined.failure().isPresent())
                    .until(() -> joined.eventsApplied() > 0);
            producePhase();
            first.close();
            assertThat(first.failure()).as("first member's failure").isEmpty();
            await("the second member takes over every partition").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .failFast("second member failed", () -> joined.failure().isPresent())
                    .until(() -> joined.assignment().size() == PARTITIONS);
            producePhase();
            long end = endTotal();
            assertThat(end).as("records in " + topic).isEqualTo(produced);
            await("the remaining member applies every partition to the end").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(100))
                    .failFast("second member failed", () -> joined.failure().isPresent())
                    .until(() -> storedTotal() == end);
            assertThat(first.eventsApplied()).as("events applied by the member that left").isPositive();
            assertThat(first.eventsApplied() + second.eventsApplied())
                    .as("events applied by both members: every record exactly once across the hand-overs")
                    .isEqualTo(produced);
            assertThat(targetRows()).as("target equals the state the events describe").isEqualTo(events.expected);
        } finally {
            first.close();
            if (second != null) {
                second.close();
                assertThat(second.failure()).as("second member's failure").isEmpty();
            }
        }
    }
}
