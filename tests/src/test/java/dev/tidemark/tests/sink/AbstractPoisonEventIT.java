package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.cli.observability.PipelineMeters;
import dev.tidemark.connector.config.PipelineConfigParser;
import dev.tidemark.reconcile.CanonicalValues;
import dev.tidemark.jdbc.ValueKind;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.sink.kafka.SinkSettings;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Poison events: an undecodable record and a record the target refuses (a CHECK constraint). Without a dead-letter
 * topic the sink stops naming topic, partition, offset and key, with the offset not advanced past the culprit;
 * with one, both culprits go there with the reason in headers and everything else is applied.
 */
abstract class AbstractPoisonEventIT {
    /** A secret that must never appear in a failure message or a dead letter (put into the target's URL where it can be). */
    static final String CANARY = "CANARY-7f3a";
    static final TableId T = new TableId("public", "stock");
    static final RowSchema S = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false),
            new Column("qty", ColumnType.of("int64"), true)), List.of("id"));

    TargetDatabase target;
    String topic;
    String bootstrap;

    abstract TargetDatabase target() throws Exception;

    /** The URL the sink is given; a subclass whose target accepts any password puts the canary into it. */
    String sinkUrl() {
        return target.jdbcUrl();
    }

    @BeforeEach
    void setUp() throws Exception {
        target = target();
        bootstrap = TestInfrastructure.kafkaBootstrap();
        topic = "poison_" + target.name() + "_" + System.nanoTime();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1), new NewTopic(topic + ".dlq", 1, (short) 1))).all().get();
        }
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + target.quotes().quote("stock") + " (" + target.quotes().quote("id") + " BIGINT NOT NULL PRIMARY KEY, "
                    + target.quotes().quote("qty") + " BIGINT CHECK (" + target.quotes().quote("qty") + " >= 0))");
        }
        EnvelopeEncoder enc = new EnvelopeEncoder("poison", "test", "db");
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap), new ByteArraySerializer(), new ByteArraySerializer())) {
            long lsn = 1;
            for (long id = 1; id <= 12; id++) {
                byte[] value;
                if (id == 6) {
                    value = "{not json".getBytes(StandardCharsets.UTF_8); // offset 5
                } else {
                    ChangeEvent.Upsert u = new ChangeEvent.Upsert(T, Map.of("id", id), S, Map.of("id", id, "qty", id == 10 ? -1L : id * 10),
                            new SourcePosition.Lsn(lsn++), ChangeEvent.Op.CREATE); // id 10 at offset 9 breaks the CHECK
                    value = enc.value(u, S, 1);
                }
                ChangeEvent.Upsert keyOnly = new ChangeEvent.Upsert(T, Map.of("id", id), S, Map.of("id", id, "qty", 0L), new SourcePosition.Lsn(0), ChangeEvent.Op.CREATE);
                p.send(new ProducerRecord<>(topic, enc.key(keyOnly, S), value)).get();
            }
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        target.close();
    }

    private KafkaSinkRunner runner(String dlq) throws Exception {
        SinkSettings settings = new SinkSettings(bootstrap, "poison-" + target.name(), List.of(topic), 500, Duration.ofMillis(100),
                new ReplayFrom.Stored(), Map.of(), dlq);
        return new KafkaSinkRunner(settings, JdbcChangeSink.open(sinkUrl(), target.properties(), SinkOptions.defaults("poison-" + target.name())));
    }

    private List<String> ids() throws Exception {
        List<String> ids = new ArrayList<>();
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + target.quotes().quote("id") + " FROM " + target.quotes().quote("stock") + " ORDER BY 1")) {
            while (rs.next()) {
                ids.add(CanonicalValues.read(rs, 1, ValueKind.INTEGER));
            }
        }
        return ids;
    }

    private long storedOffset() throws Exception {
        try (JdbcChangeSink sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults("poison-" + target.name()))) {
            return sink.storedOffsets().getOrDefault(topic, Map.of()).getOrDefault(0, -1L);
        }
    }

    @Test
    void withoutDeadLetterTopicTheSinkStopsNamingTheRecord() throws Exception {
        KafkaSinkRunner r = runner(null);
        Thread t = new Thread(r);
        t.start();
        await("sink stops on the undecodable record").atMost(Duration.ofSeconds(60)).until(r::isFinished);
        assertThat(r.failure()).isPresent();
        assertThat(r.failure().get().getMessage())
                .startsWith("topic " + topic + " partition 0 offset 5 key {\"id\":6}: cannot decode change event")
                .doesNotContain(CANARY);
        assertThat(storedOffset()).isEqualTo(5);
        assertThat(ids()).containsExactly("1", "2", "3", "4", "5");
    }

    @Test
    void aConstraintViolationIsIsolatedAndNamed() throws Exception {
        KafkaSinkRunner first = runner(topic + ".dlq");
        // get past the undecodable record first, so the next stop is the CHECK violation
        Thread t1 = new Thread(first);
        t1.start();
        await("sink applied all it could").atMost(Duration.ofSeconds(60)).until(() -> storedOffset() == 12);
        first.close();
        assertThat(first.failure()).isEmpty();
        assertThat(first.deadLettered()).isEqualTo(2);
        try (PipelineMeters meters = new PipelineMeters(PipelineConfigParser.parse(String.join("\n",
                "name: poison",
                "source: {url: \"jdbc:postgresql://db:5432/app\", tables: [public.stock]}",
                "kafka: {bootstrapServers: \"" + bootstrap + "\"}",
                "target: {url: \"jdbc:sqlite:unused.db\", deadLetterTopic: \"" + topic + ".dlq\"}",
                "observability: {port: 9464}", ""), "t.yaml", Path.of("."), Map.<String, String>of()::get))) {
            meters.deadLetters(first::deadLettered);
            assertThat(meters.scrape()).as("the endpoint's counter of this sink's dead letters")
                    .contains("tidemark_dead_letters_total{pipeline=\"poison\"} 2.0");
        }
        assertThat(ids()).containsExactly("1", "2", "3", "4", "5", "7", "8", "9", "11", "12");

        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(topic + ".dlq", 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            List<ConsumerRecord<byte[], byte[]>> dead = new ArrayList<>();
            await("two dead letters").atMost(Duration.ofSeconds(30)).until(() -> {
                c.poll(Duration.ofMillis(200)).forEach(dead::add);
                return dead.size() >= 2;
            });
            assertThat(dead).hasSize(2);
            assertThat(header(dead.get(0), "tidemark.source.offset")).isEqualTo("5");
            assertThat(header(dead.get(0), "tidemark.error")).startsWith("cannot decode change event");
            assertThat(header(dead.get(1), "tidemark.source.offset")).isEqualTo("9");
            assertThat(header(dead.get(1), "tidemark.source.topic")).isEqualTo(topic);
            assertThat(header(dead.get(1), "tidemark.error")).contains("table stock");
            assertThat(new String(dead.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("{not json");
            for (ConsumerRecord<byte[], byte[]> r : dead) {
                for (org.apache.kafka.common.header.Header h : r.headers()) {
                    assertThat(new String(h.value(), StandardCharsets.UTF_8)).as("dead-letter header %s", h.key()).doesNotContain(CANARY);
                }
            }
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
