package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.reconcile.CanonicalValues;
import dev.tidemark.jdbc.ValueKind;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.DroppedTableAdvice;
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
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 9 item 6: a target table the sink has written before (recorded in {@code tidemark_columns}) is dropped while
 * the sink runs. The sink must stop with one line naming the table and the recovery, never re-create the table
 * empty while its offsets stay ahead, and never advance the offsets; deletes on the dropped table stop it too. A
 * replay from the earliest offset (the named recovery) brings every row back.
 */
abstract class AbstractDroppedTableIT {
    static final TableId T = new TableId("public", "items");
    static final RowSchema S = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false),
            new Column("qty", ColumnType.of("int64"), true)), List.of("id"));

    TargetDatabase target;
    String topic;
    String bootstrap;
    String pipeline;
    final EnvelopeEncoder enc = new EnvelopeEncoder("dropped", "test", "db");
    long lsn = 1;
    final List<KafkaSinkRunner> runners = new ArrayList<>();

    abstract TargetDatabase target() throws Exception;

    @BeforeEach
    void setUp() throws Exception {
        target = target();
        bootstrap = TestInfrastructure.kafkaBootstrap();
        topic = "dropped_" + target.name() + "_" + System.nanoTime();
        pipeline = "dropped-" + target.name() + "-" + System.nanoTime();
        TestTopics.create(bootstrap, topic, 1);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (KafkaSinkRunner r : runners) {
            r.close();
        }
        target.close();
    }

    private void send(List<ChangeEvent> events) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(TestTopics.ackedProducer(bootstrap), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (ChangeEvent e : events) {
                p.send(new ProducerRecord<>(topic, enc.key(e, S), enc.value(e, S, 1))).get();
            }
        }
    }

    private List<ChangeEvent> inserts(long from, long to) {
        List<ChangeEvent> out = new ArrayList<>();
        for (long id = from; id <= to; id++) {
            out.add(new ChangeEvent.Upsert(T, Map.of("id", id), S, Map.of("id", id, "qty", id * 10), new SourcePosition.Lsn(lsn++),
                    ChangeEvent.Op.CREATE));
        }
        return out;
    }

    private ChangeEvent delete(long id) {
        return new ChangeEvent.Delete(T, Map.of("id", id), new SourcePosition.Lsn(lsn++), false);
    }

    private KafkaSinkRunner start(ReplayFrom replay, SinkOptions options) throws Exception {
        SinkSettings settings = new SinkSettings(bootstrap, pipeline, List.of(topic), 500, Duration.ofMillis(100), replay, Map.of(), null);
        KafkaSinkRunner r = new KafkaSinkRunner(settings, JdbcChangeSink.open(target.jdbcUrl(), target.properties(), options));
        runners.add(r);
        Thread t = new Thread(r, "dropped-table-sink");
        t.setDaemon(true);
        t.start();
        return r;
    }

    private long storedOffset() throws Exception {
        try (JdbcChangeSink sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults(pipeline))) {
            return sink.storedOffsets().getOrDefault(topic, Map.of()).getOrDefault(0, -1L);
        }
    }

    private boolean tableExists() throws Exception {
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            s.executeQuery("SELECT count(*) FROM " + target.quotes().quote("items")).close();
            return true;
        } catch (java.sql.SQLException e) {
            return false;
        }
    }

    private List<String> ids() throws Exception {
        List<String> ids = new ArrayList<>();
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + target.quotes().quote("id") + " FROM " + target.quotes().quote("items") + " ORDER BY 1")) {
            while (rs.next()) {
                ids.add(CanonicalValues.read(rs, 1, ValueKind.INTEGER));
            }
        }
        return ids;
    }

    private void dropTable() throws Exception {
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE " + target.quotes().quote("items"));
        }
    }

    private void assertStoppedNamingTableAndRecovery(KafkaSinkRunner r) {
        assertThat(r.failure()).as("the sink stopped with a failure").isPresent();
        String message = r.failure().get().getMessage();
        assertThat(message).as("one line").doesNotContain("\n");
        assertThat(message).contains("table items").endsWith(DroppedTableAdvice.RESTORE.wayOn("items")).doesNotContain("--replay-from");
        assertThat(r.deadLettered()).isZero();
    }

    @Test
    void droppingAWrittenTableStopsTheSinkWithoutRecreatingItOrAdvancingOffsets() throws Exception {
        send(inserts(1, 10));
        KafkaSinkRunner r = start(new ReplayFrom.Stored(), SinkOptions.defaults(pipeline));
        await("first ten applied").atMost(Duration.ofSeconds(60)).until(() -> storedOffset() == 10);
        dropTable();
        send(inserts(11, 15));
        await("the sink stops").atMost(Duration.ofSeconds(60)).until(r::isFinished);
        assertStoppedNamingTableAndRecovery(r);
        assertThat(storedOffset()).as("offsets not advanced").isEqualTo(10);
        assertThat(tableExists()).as("the dropped table is not re-created empty").isFalse();

        // a restart without the recovery flag stops the same way
        KafkaSinkRunner again = start(new ReplayFrom.Stored(), SinkOptions.defaults(pipeline));
        await("the restarted sink stops").atMost(Duration.ofSeconds(60)).until(again::isFinished);
        assertStoppedNamingTableAndRecovery(again);
        assertThat(storedOffset()).isEqualTo(10);
        assertThat(tableExists()).isFalse();

        // the named recovery: replay from the earliest offset, which may re-create the table
        KafkaSinkRunner replay = start(new ReplayFrom.Earliest(), SinkOptions.defaults(pipeline).rebuildingDroppedTables());
        await("replay applied everything").atMost(Duration.ofSeconds(60)).until(() -> storedOffset() == 15);
        assertThat(replay.failure()).isEmpty();
        assertThat(ids()).hasSize(15).first().isEqualTo("1");
    }

    @Test
    void deletesOnADroppedTableStopTheSink() throws Exception {
        send(inserts(1, 5));
        KafkaSinkRunner r = start(new ReplayFrom.Stored(), SinkOptions.defaults(pipeline));
        await("first five applied").atMost(Duration.ofSeconds(60)).until(() -> storedOffset() == 5);
        dropTable();
        send(List.of(delete(2), delete(3)));
        await("the sink stops").atMost(Duration.ofSeconds(60)).until(r::isFinished);
        assertStoppedNamingTableAndRecovery(r);
        assertThat(storedOffset()).as("offsets not advanced").isEqualTo(5);
    }
}
