package dev.tidemark.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What the parent hands a sink contender's child JVM ({@code --child id --bootstrap … --topic … --batch … --url …
 * --user … --expect-rows … --expect-sum … --consumer k=v,…}), parsed once. Holds only Kafka and JDK types, so a
 * contender on a class path of its own can use it.
 */
record ChildOptions(Contender contender, String bootstrap, String topic, int batch, String url, String user,
                    long expectRows, long expectSum, String group, Map<String, String> consumerExtra) {

    static ChildOptions of(Map<String, String> o) {
        Contender c = Contender.byId(o.get("contender"))
                .orElseThrow(() -> new IllegalArgumentException("unknown contender " + o.get("contender")));
        // the Debezium JDBC sink's own defaults (batch.size 500, a Connect worker's max.poll.records 500) in one of its runs
        int batch = c == Contender.DEBEZIUM_JDBC_POSTGRES_DEFAULT ? 500 : Integer.parseInt(o.get("batch"));
        Map<String, String> extra = new HashMap<>();
        for (String kv : o.getOrDefault("consumer", "").split(",")) {
            if (kv.contains("=")) {
                extra.put(kv.substring(0, kv.indexOf('=')).trim(), kv.substring(kv.indexOf('=') + 1).trim());
            }
        }
        return new ChildOptions(c, o.get("bootstrap"), o.get("topic"), batch, o.get("url"), o.get("user"),
                Long.parseLong(o.getOrDefault("expect-rows", "-1")), Long.parseLong(o.getOrDefault("expect-sum", "-1")),
                "bench-" + c.id + "-" + ProcessHandle.current().pid(), Map.copyOf(extra));
    }

    /** The arguments that {@link #of} reads back, after {@code --child id}. */
    static List<String> arguments(Contender c, String bootstrap, String topic, int batch, String url, String user,
                                  long[] expected, String consumer) {
        return List.of("--child", c.id, "--bootstrap", bootstrap, "--topic", topic, "--batch", Integer.toString(batch),
                "--url", url, "--user", user, "--expect-rows", Long.toString(expected[0]),
                "--expect-sum", Long.toString(expected[1]), "--consumer", consumer);
    }

    /** The target's JDBC properties: the user, where there is one. */
    Properties jdbcProperties() {
        Properties p = new Properties();
        if (user != null && !user.isEmpty()) {
            p.setProperty("user", user);
        }
        return p;
    }

    /** The same consumer settings KafkaSinkRunner uses. */
    KafkaConsumer<byte[], byte[]> consumer() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(batch));
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.putAll(consumerExtra);
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
