package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
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
 * Issue 9 item 7: with a dead-letter topic configured, revoking the sink user's privileges on a target table is a
 * fault of the target, not a poison event. The sink (connected as an unprivileged user created for the test) must stop
 * with one line naming the table and the missing privilege, dead-letter nothing and leave its offsets where they were;
 * after the grant and a restart every event arrives. One scenario, bound to each server target by a subclass.
 */
abstract class AbstractPermissionFaultIT {
    static final TableId T = new TableId("public", "small");
    static final RowSchema S = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false),
            new Column("qty", ColumnType.of("int64"), true)), List.of("id"));

    TargetDatabase target;
    String user;
    String topic;
    String dlq;
    String bootstrap;
    String pipeline;
    final EnvelopeEncoder enc = new EnvelopeEncoder("perm", "test", "db");
    final List<KafkaSinkRunner> runners = new ArrayList<>();

    abstract TargetDatabase target();

    /** Creates {@code user} (no superuser rights), lets it create tables and write table {@code small}, created here by the admin. */
    abstract void createUserAndTable(Statement admin, String user) throws Exception;

    /** Takes every privilege on table {@code small} away from {@code user}. */
    abstract void revoke(Statement admin, String user) throws Exception;

    /** Gives them back. */
    abstract void grant(Statement admin, String user) throws Exception;

    /** Removes {@code user}, after the test database is gone. */
    abstract void dropUser(String user) throws Exception;

    @BeforeEach
    void setUp() throws Exception {
        target = target();
        user = "tidemark_it_u" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 1_000_000;
        bootstrap = TestInfrastructure.kafkaBootstrap();
        topic = "perm_" + target.name() + "_" + System.nanoTime();
        dlq = topic + ".dlq";
        pipeline = "perm-" + System.nanoTime();
        TestTopics.create(bootstrap, topic, 1);
        TestTopics.create(bootstrap, dlq, 1);
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            createUserAndTable(s, user);
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        for (KafkaSinkRunner r : runners) {
            r.close();
        }
        target.close();
        dropUser(user);
    }

    private Properties asUser() {
        Properties p = new Properties();
        p.setProperty("user", user);
        return p;
    }

    private void send(long from, long to) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(TestTopics.ackedProducer(bootstrap), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (long id = from; id <= to; id++) {
                ChangeEvent.Upsert u = new ChangeEvent.Upsert(T, Map.of("id", id), S, Map.of("id", id, "qty", id), new SourcePosition.Lsn(id),
                        ChangeEvent.Op.CREATE);
                p.send(new ProducerRecord<>(topic, enc.key(u, S), enc.value(u, S, 1))).get();
            }
        }
    }

    private KafkaSinkRunner start() throws Exception {
        SinkSettings settings = new SinkSettings(bootstrap, pipeline, List.of(topic), 500, Duration.ofMillis(100), new ReplayFrom.Stored(), Map.of(), dlq);
        KafkaSinkRunner r = new KafkaSinkRunner(settings, JdbcChangeSink.open(target.jdbcUrl(), asUser(), SinkOptions.defaults(pipeline)));
        runners.add(r);
        Thread t = new Thread(r, "permission-sink");
        t.setDaemon(true);
        t.start();
        return r;
    }

    private long storedOffset() throws Exception {
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT next_offset FROM tidemark_offsets WHERE pipeline = '" + pipeline + "'")) {
            return rs.next() ? rs.getLong(1) : -1;
        } catch (java.sql.SQLException e) {
            return -1; // not created yet
        }
    }

    private long rows() throws Exception {
        try (Connection c = target.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM small")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private long deadLetterCount() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(dlq, 0);
            return c.endOffsets(List.of(tp)).get(tp);
        }
    }

    private interface AdminStep {
        void run(Statement admin) throws Exception;
    }

    private void admin(AdminStep step) throws Exception {
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            step.run(s);
        }
    }

    @Test
    void aRevokedTableStopsTheSinkInsteadOfDeadLettering() throws Exception {
        send(1, 5);
        KafkaSinkRunner first = start();
        await("first five applied").atMost(Duration.ofSeconds(60)).until(() -> storedOffset() == 5);
        admin(s -> revoke(s, user));
        send(6, 10);
        await("the sink stops on the missing privilege").atMost(Duration.ofSeconds(120)).until(first::isFinished);

        assertThat(first.failure()).as("stopped with a failure").isPresent();
        String message = first.failure().get().getMessage();
        assertThat(message).doesNotContain("\n").doesNotContain("table null").contains("table small").contains("privilege");
        assertThat(first.deadLettered()).as("nothing dead-lettered").isZero();
        assertThat(deadLetterCount()).as("dead-letter topic stays empty").isZero();
        assertThat(storedOffset()).as("offsets not advanced").isEqualTo(5);
        assertThat(rows()).isEqualTo(5);

        admin(s -> grant(s, user));
        KafkaSinkRunner second = start();
        await("everything arrives after the grant").atMost(Duration.ofSeconds(60)).until(() -> storedOffset() == 10);
        assertThat(rows()).isEqualTo(10);
        assertThat(second.failure()).isEmpty();
        assertThat(deadLetterCount()).isZero();
    }
}
