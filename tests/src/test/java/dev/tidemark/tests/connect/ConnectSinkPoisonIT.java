package dev.tidemark.tests.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.TableId;
import dev.tidemark.testkit.SyntheticChangeStream;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A record the plugin cannot decode, between good ones on a 1-partition topic (offset {@value #POISON_AT}): without
 * Connect's dead-letter queue the task stops naming topic, partition, offset and key, with the records before it
 * applied and the stored offset exactly at it; with {@code errors.tolerance=all} and a dead-letter topic the record is
 * reported there through the errant-record reporter and the records after it are applied.
 */
class ConnectSinkPoisonIT {
    private static final int POISON_AT = 40;
    private static final int AFTER = 40;
    private static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";
    private static final String GARBAGE = "{\"not\": \"a change event\"";
    private static ConnectWorld world;

    @BeforeAll
    static void start() {
        world = new ConnectWorld("tidemark-poison", 1);
    }

    @AfterAll
    static void stop() {
        world.close();
    }

    @Test
    void withoutADeadLetterQueueTheTaskStopsNamingTheRecordAndKeepsItsOffset() throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String targetDb = TestInfrastructure.newDatabase("connect_poison_stop");
        String topic = "stop.public.things";
        produce(topic, 11);
        world.connect.configureConnector("poison-stop", ConnectWorld.sinkConfig(topic, 1, pg, targetDb, BYTES));

        await("the task of poison-stop failed").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> "FAILED".equals(world.connect.connectorStatus("poison-stop").tasks().get(0).state()));
        String trace = world.connect.connectorStatus("poison-stop").tasks().get(0).trace();
        String first = trace.lines().filter(l -> l.contains("offset " + POISON_AT)).findFirst().orElse(trace);
        assertThat(first).contains("topic " + topic + " partition 0 offset " + POISON_AT + " key ")
                .contains("no dead-letter queue configured").contains("offsets not advanced");
        assertThat(ConnectWorld.storedOffsets(pg, targetDb, "poison-stop"))
                .containsExactly(Map.entry(new TopicPartition(topic, 0), (long) POISON_AT));
        world.connect.deleteConnector("poison-stop");
    }

    @Test
    void withConnectsDeadLetterQueueTheRecordIsReportedAndTheRestApplied() throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String targetDb = TestInfrastructure.newDatabase("connect_poison_dlq");
        String topic = "dlq.public.things";
        String dlq = "things-dead-letters";
        produce(topic, 12);
        Map<String, String> config = ConnectWorld.sinkConfig(topic, 1, pg, targetDb, BYTES);
        config.put("errors.tolerance", "all");
        config.put("errors.deadletterqueue.topic.name", dlq);
        config.put("errors.deadletterqueue.topic.replication.factor", "1");
        world.connect.configureConnector("poison-dlq", config);

        TopicPartition tp = new TopicPartition(topic, 0);
        long end = POISON_AT + 1 + AFTER;
        await("every record of " + topic + " applied or dead-lettered (stored offset " + end + ")")
                .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> Long.valueOf(end).equals(ConnectWorld.storedOffsets(pg, targetDb, "poison-dlq").get(tp)));
        ConsumerRecords<byte[], byte[]> dead = world.connect.kafka().consume(1, 30_000, dlq);
        List<String> values = java.util.stream.StreamSupport.stream(dead.spliterator(), false)
                .map(ConsumerRecord::value).map(v -> new String(v, StandardCharsets.UTF_8)).toList();
        assertThat(values).containsExactly(GARBAGE);
        ConnectorStateInfo status = world.connect.connectorStatus("poison-dlq");
        assertThat(status.tasks()).as(status.toString()).allSatisfy(t -> assertThat(t.state()).isEqualTo("RUNNING"));
        world.connect.deleteConnector("poison-dlq");
    }

    /** {@value #POISON_AT} good change events, the garbage record, {@value #AFTER} more good ones, on partition 0. */
    private static void produce(String topic, long seed) {
        world.connect.kafka().createTopic(topic, 1);
        SyntheticChangeStream stream = new SyntheticChangeStream(new TableId("public", "things"), seed, 10_000);
        EnvelopeEncoder encoder = new EnvelopeEncoder(topic.substring(0, topic.indexOf('.')), "postgresql", "poison");
        for (int i = 0; i < POISON_AT + 1 + AFTER; i++) {
            if (i == POISON_AT) {
                world.connect.kafka().produce(topic, 0, "{\"id\": 1}", GARBAGE);
                continue;
            }
            ChangeEvent e = stream.next();
            byte[] value = e instanceof ChangeEvent.Delete d && d.tombstone() ? EnvelopeEncoder.tombstone()
                    : encoder.value(e, SyntheticChangeStream.SCHEMA, 1_700_000_000_000L + i);
            world.connect.kafka().produce(topic, 0, new String(encoder.key(e, SyntheticChangeStream.SCHEMA), StandardCharsets.UTF_8),
                    value == null ? null : new String(value, StandardCharsets.UTF_8));
        }
    }
}
