package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9 item 12a: a truncate has no key, so it travels on one partition of a table's topic while the table's rows
 * travel on all of them; the sink reads partitions in any interleaving. A backlog of inserts, a {@code TRUNCATE}
 * and more inserts (Debezium envelopes, as Debezium on Kafka Connect writes them with truncates enabled) on a
 * 3-partition topic must end as exactly the inserts after the truncate: none of them lost, none of the earlier ones
 * brought back. A sink consuming the whole backlog at once interleaves the partitions' chunks in each batch.
 */
class TruncateAcrossPartitionsIT {
    static final TableId T = new TableId("public", "trunc_items");
    static final RowSchema SCHEMA = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false),
            new Column("label", ColumnType.of("string"), true)), List.of("id"));
    static final int PARTITIONS = 3;

    @TempDir
    Path dir;

    @Test
    void insertsAfterATruncateSurviveAndInsertsBeforeItStayGone() throws Exception {
        try (CdcFixture f = new CdcFixture("truncparts", dir, List.of(T))) {
            PipelineConfig base = f.config(f.name, "target.db");
            PipelineConfig config = new PipelineConfig(base.name(), base.source(),
                    new KafkaConfig(f.bootstrap, f.name, PARTITIONS, (short) 1, Map.of()),
                    new TargetConfig(f.targetUrl("target.db"), null, Secret.empty(), 500, SinkOptions.DEFAULT_POSITION_COLUMN, true),
                    base.stateDir());
            String topic = config.topicFor(T);
            Map<Long, String> expected = new TreeMap<>();
            produce(f.bootstrap, topic, f.name, expected);

            Sidecar sink = f.start(config, false, true, new ReplayFrom.Stored());
            TargetDigest.awaitOffsetsAtEnd(f.bootstrap, config, sink);
            assertThat(sink.failure()).as("sink failure").isEmpty();
            Map<Long, String> actual = new TreeMap<>();
            try (Connection t = DriverManager.getConnection(f.targetUrl("target.db")); Statement s = t.createStatement();
                 ResultSet rs = s.executeQuery("SELECT id, label FROM trunc_items")) {
                while (rs.next()) {
                    actual.put(rs.getLong(1), rs.getString(2));
                }
            }
            List<Long> missing = new ArrayList<>(expected.keySet());
            missing.removeAll(actual.keySet());
            List<Long> surplus = new ArrayList<>(actual.keySet());
            surplus.removeAll(expected.keySet());
            assertThat(missing).as("keys inserted after the truncate but missing from the target").isEmpty();
            assertThat(surplus).as("keys truncated but present in the target").isEmpty();
            assertThat(actual).isEqualTo(expected);
        }
    }

    /**
     * Rounds of: 200 inserts (and updates of half of them), a truncate on partition {@code round % 3}; then 300 final
     * inserts. Row records go to the partition Kafka's default partitioner picks for their key, as capture sends them.
     */
    private static void produce(String bootstrap, String topic, String name, Map<Long, String> expected) throws Exception {
        Properties admin = new Properties();
        admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin a = Admin.create(admin)) {
            a.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        EnvelopeEncoder encoder = new EnvelopeEncoder(name, "postgresql", name);
        long lsn = 0x1000;
        long id = 1;
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 200; i++, id++) {
                    acks.add(send(producer, topic, null, encoder, upsert(id, "round " + round, lsn++, ChangeEvent.Op.CREATE)));
                    expected.put(id, "round " + round);
                }
                for (long u = id - 200; u < id; u += 2) {
                    acks.add(send(producer, topic, null, encoder, upsert(u, "updated " + round, lsn++, ChangeEvent.Op.UPDATE)));
                }
                ChangeEvent.Truncate truncate = new ChangeEvent.Truncate(T, new SourcePosition.Lsn(lsn++));
                acks.add(producer.send(new ProducerRecord<>(topic, round % PARTITIONS, null, encoder.value(truncate, SCHEMA, 0))));
                expected.clear();
            }
            for (int i = 0; i < 300; i++, id++) {
                acks.add(send(producer, topic, null, encoder, upsert(id, "final", lsn++, ChangeEvent.Op.CREATE)));
                expected.put(id, "final");
            }
            for (Future<RecordMetadata> ack : acks) {
                ack.get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static Future<RecordMetadata> send(KafkaProducer<byte[], byte[]> producer, String topic, Integer partition,
                                               EnvelopeEncoder encoder, ChangeEvent.Upsert u) {
        return producer.send(new ProducerRecord<>(topic, partition, encoder.key(u, SCHEMA), encoder.value(u, SCHEMA, 0)));
    }

    private static ChangeEvent.Upsert upsert(long id, String label, long lsn, ChangeEvent.Op op) {
        return new ChangeEvent.Upsert(T, Map.of("id", id), SCHEMA, Map.of("id", id, "label", label), new SourcePosition.Lsn(lsn), op);
    }
}
