package dev.tidemark.tests.sink;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.sink.kafka.SinkSettings;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One topic of change events for the table {@code items} (upserts, deletes followed by tombstones), the state those
 * events describe, and read-backs of the broker (end and start offsets) and of the target (stored offsets, rows), for
 * the consumer-loop ITs.
 */
final class SinkLoopFixture {
    static final TableId T = new TableId("public", "items");

    final String bootstrap;
    final String topic;
    final int partitions;
    final TargetDatabase target;
    final Map<Long, String> expected = new TreeMap<>();
    private final Random random;
    private final RowSchema schema = SinkEvents.wide("id");
    private final EnvelopeEncoder encoder = new EnvelopeEncoder("loop", "test", "db");
    private final int keySpace;
    private long lsn;

    SinkLoopFixture(String bootstrap, String topic, int partitions, TargetDatabase target, long seed, int keySpace) throws Exception {
        this.bootstrap = bootstrap;
        this.topic = topic;
        this.partitions = partitions;
        this.target = target;
        this.random = new Random(seed);
        this.keySpace = keySpace;
        TestTopics.create(bootstrap, topic, partitions);
    }

    /** Produces {@code count} changes (a delete adds its tombstone) and waits for every ack; returns records sent. */
    long produce(int count) throws Exception {
        List<Future<?>> acks = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(TestTopics.ackedProducer(bootstrap), new ByteArraySerializer(), new ByteArraySerializer())) {
            p.partitionsFor(topic);
            for (int i = 0; i < count; i++) {
                long id = random.nextInt(keySpace);
                lsn++;
                ChangeEvent e;
                if (random.nextInt(10) < 2 && expected.containsKey(id)) {
                    e = SinkEvents.delete(T, schema, id, lsn);
                    expected.remove(id);
                } else {
                    e = SinkEvents.upsert(T, schema, id, "v" + lsn, lsn);
                    expected.put(id, "v" + lsn);
                }
                byte[] key = encoder.key(SinkEvents.upsert(T, schema, id, "", 0), schema);
                acks.add(p.send(new ProducerRecord<>(topic, key, encoder.value(e, schema, System.currentTimeMillis()))));
                if (e instanceof ChangeEvent.Delete) {
                    acks.add(p.send(new ProducerRecord<>(topic, key, null)));
                }
            }
        }
        for (Future<?> ack : acks) {
            ack.get();
        }
        return acks.size();
    }

    /** Starts an in-process sink writer for {@code pipeline} (also its consumer group) on its own thread. */
    KafkaSinkRunner start(String pipeline, ReplayFrom replay, Map<String, String> extra) throws Exception {
        return start(pipeline, replay, extra, new Properties());
    }

    /** As {@link #start(String, ReplayFrom, Map)}, with extra target connection properties. */
    KafkaSinkRunner start(String pipeline, ReplayFrom replay, Map<String, String> extra, Properties connection) throws Exception {
        return start(pipeline, replay, extra, connection, UnaryOperator.identity());
    }

    /** As {@link #start(String, ReplayFrom, Map, Properties)}, with the settings adjusted (explicit choices, member id). */
    KafkaSinkRunner start(String pipeline, ReplayFrom replay, Map<String, String> extra, Properties connection,
                          UnaryOperator<SinkSettings> adjust) throws Exception {
        SinkSettings settings = adjust.apply(new SinkSettings(bootstrap, pipeline, List.of(topic), 200, Duration.ofMillis(100), replay, extra));
        Properties props = new Properties();
        props.putAll(target.properties());
        props.putAll(connection);
        KafkaSinkRunner runner = new KafkaSinkRunner(settings, JdbcChangeSink.open(target.jdbcUrl(), props, SinkOptions.defaults(pipeline)));
        new Thread(runner, "sink-" + pipeline).start();
        return runner;
    }

    List<TopicPartition> topicPartitions() {
        return IntStream.range(0, partitions).mapToObj(i -> new TopicPartition(topic, i)).toList();
    }

    Map<Integer, Long> endOffsets() {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Map<Integer, Long> out = new TreeMap<>();
            c.endOffsets(topicPartitions()).forEach((tp, o) -> out.put(tp.partition(), o));
            return out;
        }
    }

    Map<Integer, Long> startOffsets() {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Map<Integer, Long> out = new TreeMap<>();
            c.beginningOffsets(topicPartitions()).forEach((tp, o) -> out.put(tp.partition(), o));
            return out;
        }
    }

    /** The offsets {@code pipeline} stored in the target for this topic, by partition. */
    Map<Integer, Long> stored(String pipeline) throws Exception {
        try (JdbcChangeSink sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults(pipeline))) {
            return new TreeMap<>(sink.storedOffsets().getOrDefault(topic, Map.of()));
        }
    }

    /** id → label of every row of the target's {@code items} (empty when the table does not exist yet). */
    Map<Long, String> rows() throws Exception {
        Map<Long, String> rows = new TreeMap<>();
        try (Connection c = target.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT " + target.quotes().quote("id") + ", " + target.quotes().quote("label") + " FROM " + target.quotes().quote("items"))) {
            while (rs.next()) {
                rows.put(rs.getLong(1), rs.getString(2));
            }
        } catch (SQLException e) {
            return Map.of(); // the sink has not created the table yet
        }
        return rows;
    }

    static long count(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
