package dev.tidemark.bench;

import io.debezium.connector.jdbc.JdbcSinkConnectorTask;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * The Debezium JDBC sink contender: Debezium's own sink task ({@code io.debezium:debezium-connector-jdbc}
 * 3.5.0.Final) fed in this process the records a Connect worker would hand it — polled from the same topic,
 * converted by Connect's JsonConverter with schemas on (a worker's default), {@code put} per poll, flushed through
 * {@code preCommit} at the end — with upserts by record key and deletes on, into PostgreSQL. Without a worker's own
 * overhead (rebalances, offset commits to Kafka, converters' metrics) this is an upper bound for it on Connect.
 */
final class DebeziumJdbcSinkRun {
    private DebeziumJdbcSinkRun() {
    }

    /**
     * The task's settings: upsert by record key, deletes applied, tables created, the target table named {@code items};
     * with {@code reduce}, its reduction buffer ({@code use.reduction.buffer}: one change per key per batch — without
     * it every delete flushes the buffered upserts, so batches stay small on a stream with deletes).
     */
    static Map<String, String> taskConfig(String url, String user, int batch, boolean reduce) {
        Map<String, String> c = new HashMap<>();
        c.put("connection.url", url);
        c.put("connection.username", user);
        c.put("connection.password", "");
        c.put("insert.mode", "upsert");
        c.put("delete.enabled", "true");
        c.put("primary.key.mode", "record_key");
        c.put("schema.evolution", "basic");
        c.put("batch.size", Integer.toString(batch));
        c.put("collection.name.format", "items");
        c.put("use.reduction.buffer", Boolean.toString(reduce));
        return c;
    }

    static void run(ContenderRun.Progress progress, KafkaConsumer<byte[], byte[]> consumer, String topic,
                    Map<TopicPartition, Long> end, String url, String user, int batch, boolean reduce) {
        JsonConverter keys = new JsonConverter();
        keys.configure(Map.of("schemas.enable", "true"), true);
        JsonConverter values = new JsonConverter();
        values.configure(Map.of("schemas.enable", "true"), false);
        JdbcSinkConnectorTask task = new JdbcSinkConnectorTask();
        task.initialize(new Context(consumer));
        task.start(taskConfig(url, user, batch, reduce));
        try {
            consumer.subscribe(List.of(topic));
            Map<TopicPartition, OffsetAndMetadata> position = new HashMap<>();
            long put = 0;
            while (!reached(position, end)) {
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(200));
                if (polled.isEmpty()) {
                    continue;
                }
                List<SinkRecord> records = new ArrayList<>(polled.count());
                for (ConsumerRecord<byte[], byte[]> r : polled) {
                    SchemaAndValue k = keys.toConnectData(r.topic(), r.key());
                    SchemaAndValue v = values.toConnectData(r.topic(), r.value());
                    records.add(new SinkRecord(r.topic(), r.partition(), k.schema(), k.value(), v.schema(), v.value(), r.offset(),
                            r.timestamp(), TimestampType.CREATE_TIME));
                    position.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                }
                task.put(records);
                put += records.size();
                progress.observe(put);
            }
            task.preCommit(position); // writes what the task still buffers
            progress.done();
        } finally {
            task.stop();
        }
    }

    private static boolean reached(Map<TopicPartition, OffsetAndMetadata> position, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            OffsetAndMetadata at = position.get(e.getKey());
            if ((at == null ? 0 : at.offset()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** What a worker's context gives a task, for a task that runs alone on one consumer. */
    private record Context(KafkaConsumer<byte[], byte[]> consumer) implements SinkTaskContext {
        @Override
        public Map<String, String> configs() {
            return Map.of();
        }

        @Override
        public void offset(Map<TopicPartition, Long> offsets) {
            offsets.forEach(consumer::seek);
        }

        @Override
        public void offset(TopicPartition tp, long offset) {
            consumer.seek(tp, offset);
        }

        @Override
        public void timeout(long timeoutMs) {
            // retries are not exercised: a failure ends the contender's run
        }

        @Override
        public Set<TopicPartition> assignment() {
            return consumer.assignment();
        }

        @Override
        public void pause(TopicPartition... partitions) {
            consumer.pause(List.of(partitions));
        }

        @Override
        public void resume(TopicPartition... partitions) {
            consumer.resume(List.of(partitions));
        }

        @Override
        public void requestCommit() {
            // offsets are not committed to Kafka in this run
        }

        @Override
        public org.apache.kafka.common.metrics.PluginMetrics pluginMetrics() {
            return null; // a worker's plugin metrics: none in this run
        }
    }
}
