package dev.tidemark.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * The Debezium JDBC sink contender, the main class of its own child JVM: Debezium's own sink task
 * ({@code io.debezium:debezium-connector-jdbc}), loaded by class name as a Connect worker loads a plugin, on the class
 * path {@link DebeziumClassPath} gives it (one Debezium version, checked at start), fed in this process the records a
 * worker would hand it — polled from the same topic, converted by Connect's JsonConverter with schemas on (a
 * worker's default), {@code put} per poll, flushed through {@code preCommit} at the end — with upserts by record key
 * and deletes on, into PostgreSQL. Without a worker's own overhead (rebalances, offset commits to Kafka, converters'
 * metrics) this is an upper bound for it on Connect. Loads no Tidemark class.
 */
final class DebeziumJdbcSinkRun {
    static final String TASK = "io.debezium.connector.jdbc.JdbcSinkConnectorTask";

    private DebeziumJdbcSinkRun() {
    }

    /** {@code --child debezium-jdbc-postgres[-500]} and the other {@link ChildOptions}. */
    public static void main(String[] args) throws Exception {
        Map<String, String> o = BenchArgs.options(args, new LinkedHashMap<>(), "usage: DebeziumJdbcSinkRun --child ID …", "bench");
        o.put("contender", o.get("child"));
        ChildOptions options = ChildOptions.of(o);
        String version = DebeziumClassPath.oneVersion(DebeziumClassPath.own());
        try (MemoryPeaks memory = new MemoryPeaks()) {
            Map<TopicPartition, Long> end = TopicDrain.endOffsets(options.bootstrap(), options.topic());
            ContenderProgress progress = new ContenderProgress(options.contender().id, TopicDrain.total(end));
            SinkTask task = Class.forName(TASK).asSubclass(SinkTask.class).getDeclaredConstructor().newInstance();
            System.out.println("    Debezium JDBC sink task " + task.version() + "; class path: Debezium " + version + " only");
            try (KafkaConsumer<byte[], byte[]> consumer = options.consumer()) {
                run(task, progress, consumer, end, options);
            }
            ContenderResult.print(options, TopicDrain.total(end), progress, memory, -1, -1);
        }
        System.exit(0);
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

    private static void run(SinkTask task, ContenderProgress progress, KafkaConsumer<byte[], byte[]> consumer,
                            Map<TopicPartition, Long> end, ChildOptions o) throws Exception {
        JsonConverter keys = new JsonConverter();
        keys.configure(Map.of("schemas.enable", "true"), true);
        JsonConverter values = new JsonConverter();
        values.configure(Map.of("schemas.enable", "true"), false);
        task.initialize(new Context(consumer));
        task.start(taskConfig(o.url(), o.user(), o.batch(), o.contender() == Contender.DEBEZIUM_JDBC_POSTGRES));
        try {
            Map<TopicPartition, Long> position = TopicDrain.drain(consumer, o.topic(), end, progress, polled -> {
                List<SinkRecord> records = new ArrayList<>(polled.count());
                for (ConsumerRecord<byte[], byte[]> r : polled) {
                    SchemaAndValue k = keys.toConnectData(r.topic(), r.key());
                    SchemaAndValue v = values.toConnectData(r.topic(), r.value());
                    records.add(new SinkRecord(r.topic(), r.partition(), k.schema(), k.value(), v.schema(), v.value(), r.offset(),
                            r.timestamp(), TimestampType.CREATE_TIME));
                }
                task.put(records);
            });
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            position.forEach((tp, next) -> commit.put(tp, new OffsetAndMetadata(next)));
            task.preCommit(commit); // writes what the task still buffers
            progress.done();
        } finally {
            task.stop();
        }
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
