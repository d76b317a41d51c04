package dev.tidemark.bench;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.testkit.SyntheticChangeStream;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The sink benchmark's workload on Kafka: one topic of {@code partitions} partitions holding {@code events} records of
 * a {@link SyntheticChangeStream} seeded with {@code seed} on {@link SinkBenchmark#TABLE}, encoded as capture encodes
 * them and keyed by primary key. Prints its progress; returns what every target must hold at the end.
 */
final class SinkTopicPreload {
    private SinkTopicPreload() {
    }

    /** Creates and produces {@code topic}; returns {live rows, sum of live ids} after the whole stream. */
    static long[] load(String bootstrap, String topic, long events, int partitions, long seed) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(1024 * 1024));
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(128L * 1024 * 1024));
        int keySpace = (int) Math.min(Integer.MAX_VALUE - 1, Math.max(1_000, events));
        SyntheticChangeStream stream = new SyntheticChangeStream(SinkBenchmark.TABLE, seed, keySpace);
        EnvelopeEncoder encoder = new EnvelopeEncoder(SinkBenchmark.TOPIC_PREFIX, "postgresql", "bench");
        BitSet live = new BitSet(keySpace + 1);
        long bytes = 0;
        long start = System.nanoTime();
        long step = Math.max(1, events / 10);
        System.out.println("  pre-loading " + topic + " (keys drawn from 1.." + keySpace + ")");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (long i = 0; i < events; i++) {
                ChangeEvent e = stream.next();
                byte[] key = encoder.key(e, SyntheticChangeStream.SCHEMA);
                byte[] value = e instanceof ChangeEvent.Delete d && d.tombstone() ? EnvelopeEncoder.tombstone()
                        : encoder.value(e, SyntheticChangeStream.SCHEMA, 1_700_000_000_000L + i);
                int id = (int) (long) (Long) e.key().get(SyntheticChangeStream.ID);
                live.set(id, e instanceof ChangeEvent.Upsert);
                bytes += key.length + (value == null ? 0 : value.length);
                producer.send(new ProducerRecord<>(topic, key, value), (m, ex) -> {
                    if (ex != null) {
                        System.err.println("bench: send failed: " + ex);
                        System.exit(3);
                    }
                });
                if ((i + 1) % step == 0) {
                    double s = (System.nanoTime() - start) / 1e9;
                    System.out.printf(Locale.ROOT, "    loaded %,12d / %,d records  %,8.0f MiB  %,8.0f records/s%n",
                            i + 1, events, bytes / 1048576.0, (i + 1) / s);
                }
            }
            producer.flush();
        }
        long[] c = stream.counts();
        long sum = 0;
        for (int id = live.nextSetBit(0); id >= 0; id = live.nextSetBit(id + 1)) {
            sum += id;
        }
        System.out.printf(Locale.ROOT, "  loaded %,d records (%,d inserts, %,d updates, %,d deletes, %,d tombstones; %.0f MiB, "
                        + "%.0f bytes/record) in %.1f s; %,d rows live at the end%n",
                events, c[0], c[1], c[2], c[3], bytes / 1048576.0, (double) bytes / events, (System.nanoTime() - start) / 1e9,
                live.cardinality());
        return new long[] {live.cardinality(), sum};
    }
}
