package dev.tidemark.connector.watermark;

import dev.tidemark.connector.config.KafkaAdmins;
import dev.tidemark.connector.config.KafkaFailure;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.sink.jdbc.SideWrite;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Into Kafka, for a sink writer (or any consumer of Debezium envelopes) to apply: one topic per table,
 * {@code <prefix>.<schema>.<table>}, keyed by the primary key, values encoded by {@link EnvelopeEncoder} with
 * {@code source.connector = "watermark"}; a soft delete is a {@code d} envelope followed by a tombstone.
 *
 * <p>Ordering: every record of a chunk is sent, then every send future is awaited; only when all are acknowledged
 * (acks=all, idempotent producer) is the control write run and committed on the control database. A crash in
 * between repeats the chunk on the next run; it never stores a watermark past unacknowledged rows.
 */
public final class KafkaDelivery implements Delivery {
    private final KafkaProducer<byte[], byte[]> producer;
    private final EnvelopeEncoder encoder;
    private final String topicPrefix;
    private final Properties adminProperties;
    private final Map<String, String> kafkaProperties;
    private final int partitions;
    private final short replication;
    private final Connection control;
    private final Dialect controlDialect;
    private final Set<String> topicsReady = new HashSet<>();

    /**
     * @param control the connection the control table lives on (autocommit off); this delivery commits on it
     */
    public KafkaDelivery(String bootstrapServers, Map<String, String> properties, String topicPrefix, String database,
                         int partitions, short replication, Connection control, Dialect controlDialect) {
        this.producer = new KafkaProducer<>(producerProperties(bootstrapServers, properties), new ByteArraySerializer(),
                new ByteArraySerializer());
        this.kafkaProperties = Map.copyOf(properties);
        this.adminProperties = new Properties();
        adminProperties.putAll(properties);
        adminProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        this.encoder = new EnvelopeEncoder(topicPrefix, "watermark", database);
        this.topicPrefix = topicPrefix;
        this.partitions = partitions;
        this.replication = replication;
        this.control = control;
        this.controlDialect = controlDialect;
    }

    /** The producer's properties: {@code properties} ({@code kafka.properties}), acks from all replicas, idempotent. */
    static Properties producerProperties(String bootstrapServers, Map<String, String> properties) {
        Properties p = new Properties();
        p.putAll(properties);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return p;
    }

    /** The topic a table's events go to. */
    public static String topic(String prefix, TableId table) {
        return dev.tidemark.connector.config.TopicNames.of(prefix, table);
    }

    @Override
    public void deliver(List<ChangeEvent> events, RowSchema schema, SideWrite controlWrite) throws Exception {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        long ts = System.currentTimeMillis();
        for (ChangeEvent e : events) {
            String topic = topic(topicPrefix, e.table());
            ensureTopic(topic);
            byte[] key = encoder.key(e, schema);
            acks.add(producer.send(new ProducerRecord<>(topic, null, key, encoder.value(e, schema, ts))));
            if (e instanceof ChangeEvent.Delete) {
                acks.add(producer.send(new ProducerRecord<>(topic, null, key, EnvelopeEncoder.tombstone())));
            }
        }
        for (int i = 0; i < acks.size(); i++) {
            try {
                acks.get(i).get(120, TimeUnit.SECONDS);
            } catch (ExecutionException ex) {
                throw new IllegalStateException("Kafka did not acknowledge record " + (i + 1) + " of " + acks.size()
                        + " (" + KafkaFailure.reason(kafkaProperties, ex.getCause()) + "); the watermark was not advanced", ex.getCause());
            }
        }
        try {
            controlWrite.write(control, controlDialect);
            control.commit();
        } catch (SQLException ex) {
            control.rollback();
            throw ex;
        }
    }

    private void ensureTopic(String topic) throws InterruptedException {
        if (topicsReady.contains(topic)) {
            return;
        }
        Admin admin = KafkaAdmins.create(kafkaProperties, adminProperties);
        java.time.Duration closeWait = java.time.Duration.ofSeconds(5);
        try {
            admin.createTopics(List.of(new NewTopic(topic, partitions, replication))).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create topic " + topic + " on " + adminProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG) + ": "
                        + KafkaFailure.reason(kafkaProperties, e.getCause()), e);
            }
        } catch (java.util.concurrent.TimeoutException e) {
            // and do not let close() wait for the unanswered request's own 60 s timeout: fail in the time stated
            closeWait = java.time.Duration.ZERO;
            throw new IllegalStateException("Kafka did not answer within 30 s while creating topic " + topic
                    + " (" + KafkaFailure.noAnswerHint(kafkaProperties) + ")", e);
        } finally {
            admin.close(closeWait);
        }
        topicsReady.add(topic);
    }

    @Override
    public String describe() {
        return "kafka topics " + topicPrefix + ".*";
    }

    @Override
    public void close() {
        producer.close(java.time.Duration.ofSeconds(30));
    }
}
