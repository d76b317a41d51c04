package dev.tidemark.bench;

import dev.tidemark.testkit.SyntheticChangeStream;
import dev.tidemark.devenv.LocalKafka;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Databases;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
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
 * The sink benchmark: starts a single-node Kafka ({@link LocalKafka}), pre-loads one topic with a seeded
 * {@link SyntheticChangeStream} (≈70% inserts, 20% updates, 10% deletes + tombstones, 6 columns, random keys) encoded
 * as Debezium envelopes, then lets each contender consume that same topic from the beginning in its own child JVM and
 * prints events/s, the ratio to its baseline, peak heap and peak RSS side by side. See {@code docs/benchmarks.md}.
 *
 * <pre>
 * bench/sink.sh [--events N] [--batch N] [--contenders a,b,…] [--rounds N] [--seed N] [--pg jdbc:postgresql://127.0.0.1:5432/]
 *               [--pg-user postgres] [--jvm "-Xms256m -Xmx1g"] [--consumer k=v,…] [--workdir DIR]
 * </pre>
 */
public final class SinkBenchmark {
    static final TableId TABLE = new TableId("public", "items");
    static final String TOPIC_PREFIX = "bench";

    private SinkBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        if (o.containsKey("child")) {
            o.put("contender", o.get("child"));
            System.exit(ContenderRun.run(o));
        }
        System.exit(new Parent(o).run());
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("events", "1000000");
        o.put("batch", "2000");
        o.put("seed", "42");
        o.put("partitions", "3");
        o.put("pg", "jdbc:postgresql://127.0.0.1:5432/");
        o.put("pg-user", "postgres");
        o.put("jvm", "-Xms256m -Xmx1g");
        o.put("contenders", String.join(",", Contender.ids()));
        o.put("rounds", "1");
        o.put("consumer", "");
        return BenchArgs.options(args, o,
                "usage: bench/sink.sh [--events N] [--batch N] [--contenders " + String.join(",", Contender.ids())
                        + "] [--rounds N] [--seed N] [--partitions N] [--pg URL] [--pg-user USER] [--jvm OPTIONS] [--consumer k=v,…] [--workdir DIR]",
                "bench");
    }

    /** The orchestrating JVM: Kafka, the pre-load, one child JVM per contender, the table. */
    private static final class Parent {
        private final Map<String, String> o;
        private final long events;
        private final int batch;
        private final int partitions;
        private final long seed;
        private final int rounds;
        private final List<Map<String, String>> results = new ArrayList<>();

        Parent(Map<String, String> o) {
            this.o = o;
            this.events = Long.parseLong(o.get("events").replace("_", ""));
            this.batch = Integer.parseInt(o.get("batch"));
            this.partitions = Integer.parseInt(o.get("partitions"));
            this.seed = Long.parseLong(o.get("seed"));
            this.rounds = Integer.parseInt(o.get("rounds"));
        }

        int run() throws Exception {
            List<Contender> contenders = new ArrayList<>();
            for (String id : o.get("contenders").split(",")) {
                contenders.add(Contender.byId(id.trim()).orElseThrow(() -> new IllegalArgumentException(
                        "unknown contender " + id + " (known: " + Contender.ids() + ")")));
            }
            System.out.println("Tidemark sink benchmark");
            System.out.println("  machine: " + Runtime.getRuntime().availableProcessors() + " cores, " + Machine.memTotal() + ", "
                    + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", Java " + System.getProperty("java.version"));
            System.out.println("  workload: " + String.format(Locale.ROOT, "%,d", events) + " records, seed " + seed + ", "
                    + partitions + " partitions, batch (max.poll.records) " + batch + ", contender JVMs: " + o.get("jvm")
                    + (rounds > 1 ? ", " + rounds + " rounds (best of them reported)" : "")
                    + (o.get("consumer").isEmpty() ? "" : ", extra consumer properties for every contender: " + o.get("consumer")));
            Path work = o.containsKey("workdir") ? Files.createDirectories(Path.of(o.get("workdir")))
                    : Files.createTempDirectory("tidemark-bench-");
            try (LocalKafka kafka = LocalKafka.start(work.resolve("kafka"))) {
                System.out.printf(Locale.ROOT, "  Kafka %s started in %.1f s%n", kafka.bootstrapServers(), kafka.startupMillis() / 1000.0);
                String topic = TOPIC_PREFIX + "." + TABLE.schema() + "." + TABLE.table();
                long[] expected = preload(kafka.bootstrapServers(), topic);
                for (int round = 1; round <= rounds; round++) {
                    if (rounds > 1) {
                        System.out.println("  round " + round + " of " + rounds);
                    }
                    for (Contender c : contenders) {
                        Map<String, String> r = runContender(c, kafka.bootstrapServers(), topic, work, expected);
                        r.put("round", Integer.toString(round));
                        results.add(r);
                    }
                }
            } finally {
                deleteRecursively(work);
            }
            new SinkResultsTable(events, rounds, results).print();
            return 0;
        }

        /** Produces the topic; returns {live rows, sum of live ids} after the whole stream. */
        private long[] preload(String bootstrap, String topic) throws Exception {
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
            SyntheticChangeStream stream = new SyntheticChangeStream(TABLE, seed, keySpace);
            EnvelopeEncoder encoder = new EnvelopeEncoder(TOPIC_PREFIX, "postgresql", "bench");
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

        private Map<String, String> runContender(Contender c, String bootstrap, String topic, Path work, long[] expected) throws Exception {
            System.out.println("  " + c.id + ": " + c.description + " [load average " + Machine.loadAverage() + "]");
            String url = null;
            String database = null;
            String pg = o.get("pg").endsWith("/") ? o.get("pg") : o.get("pg") + "/";
            String pgUser = o.get("pg-user");
            switch (c.target) {
                case SQLITE -> url = "jdbc:sqlite:" + work.resolve(c.id + ".db");
                case POSTGRES -> {
                    if (c.tidemark) {
                        try {
                            Databases.targetForUrl(pg + "x");
                        } catch (IllegalArgumentException e) {
                            return skipped(c, "n/a: PostgreSQL dialect not on this branch yet");
                        }
                    }
                    database = "tidemark_bench_" + ProcessHandle.current().pid() + "_" + c.name().toLowerCase(Locale.ROOT);
                    try {
                        adminSql(pg, pgUser, "CREATE DATABASE " + database);
                    } catch (SQLException e) {
                        return skipped(c, "n/a: PostgreSQL at " + pg + " not reachable as " + pgUser + ": " + e.getMessage());
                    }
                    url = pg + database;
                }
                case NONE -> url = "";
            }
            try {
                return launch(c, bootstrap, topic, url, c.target == Contender.Target.POSTGRES ? pgUser : "", expected);
            } finally {
                if (database != null) {
                    adminSql(pg, pgUser, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
                }
                if (c.target == Contender.Target.SQLITE) {
                    for (String suffix : List.of("", "-wal", "-shm")) {
                        Files.deleteIfExists(work.resolve(c.id + ".db" + suffix));
                    }
                }
            }
        }

        /** The contender's child JVM: bench's class path, or for Debezium's JDBC sink its own ({@link DebeziumClassPath}). */
        private Map<String, String> launch(Contender c, String bootstrap, String topic, String url, String user, long[] expected)
                throws Exception {
            String classPath = System.getProperty("java.class.path");
            Class<?> main = SinkBenchmark.class;
            if (c.ownClassPath()) {
                Path benchCode = Path.of(SinkBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                if (!DebeziumClassPath.missing(benchCode).isEmpty()) {
                    return skipped(c, "n/a: " + DebeziumClassPath.missing(benchCode));
                }
                classPath = DebeziumClassPath.forChild(benchCode);
                main = DebeziumJdbcSinkRun.class;
            }
            ChildJvm.Outcome out = ChildJvm.run(ChildJvm.command(o.get("jvm"), classPath, main,
                    ChildOptions.arguments(c, bootstrap, topic, batch, url, user, expected, o.get("consumer"))));
            if (out.results().isEmpty() || out.exit() != 0) {
                return skipped(c, out.failure());
            }
            Map<String, String> result = out.results().get(0);
            result.put("load", Machine.loadAverage());
            System.out.printf(Locale.ROOT, "    → %,.0f events/s over %s s (wall %s s), peak heap %s, peak RSS %s; target check: %s; load average after: %s%n",
                    Double.parseDouble(result.get("eps")), result.get("seconds"), result.get("wall"),
                    SinkResultsTable.mib(result.get("heap")), SinkResultsTable.mib(result.get("rss")), result.get("check"), result.get("load"));
            return result;
        }

        private static Map<String, String> skipped(Contender c, String why) {
            return ChildJvm.skipped(c.id, why);
        }

        private static void adminSql(String server, String user, String sql) throws SQLException {
            Properties p = new Properties();
            p.setProperty("user", user);
            p.setProperty("connectTimeout", "5");
            try (Connection c = DriverManager.getConnection(server + "postgres", p); Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }

        private static void deleteRecursively(Path dir) throws IOException {
            if (!Files.exists(dir)) {
                return;
            }
            try (var paths = Files.walk(dir)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
