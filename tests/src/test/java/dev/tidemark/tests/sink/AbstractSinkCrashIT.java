package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.testkit.SyntheticChangeStream;
import dev.tidemark.devenv.LocalKafka;
import dev.tidemark.jdbc.ValueKind;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.TableId;
import dev.tidemark.tests.ChildJvm;
import dev.tidemark.tests.TestInfrastructure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.Callable;
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
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink writer survives {@code kill -9} at random points of a backlog ({@link #RECORDS} records; 30,000 in the
 * suite, 100,000 in the long form {@code bench/sink-crash.sh}): {@code tidemark sink} runs as a child JVM, is
 * SIGKILLed {@link #KILLS} times (4 in the suite, 6 in the long form) once the offsets it stored in the target pass a
 * random threshold,
 * then a last run drains the topic. The target must then equal the expected final state by key and row checksum:
 * nothing lost, nothing duplicated, nothing stale.
 *
 * <p>Also checked at every kill: the process really died of SIGKILL (exit 137) mid-backlog (stored offsets strictly
 * between 0 and the end), and the target equals exactly the state of the partition prefixes its stored offsets name
 * — the batch and its offsets committed together or not at all.
 *
 * <p>The backlog is a seeded {@link SyntheticChangeStream} (≈70% inserts, 20% updates, 10% deletes each followed by a
 * tombstone; 6 columns: bigint key, numeric(12,2), text with quotes and Unicode, timestamptz(6), boolean, nullable
 * int) encoded with {@link EnvelopeEncoder} onto a 3-partition topic keyed by primary key. The seed is printed;
 * rerun with {@code -Dtidemark.crash.seed=N} to repeat a workload and its kill thresholds. Bound to each target by a
 * subclass.
 */
abstract class AbstractSinkCrashIT {
    /** Records in the backlog: 30,000 in the suite, more in the long form ({@code bench/sink-crash.sh}). */
    static final int RECORDS = Integer.getInteger("tidemark.crash.records", 30_000);
    static final int KEY_SPACE = RECORDS;
    static final int PARTITIONS = 3;
    /** Kills in one run: 4 in the suite, more in the long form. */
    static final int KILLS = Integer.getInteger("tidemark.crash.kills", 4);
    static final int BATCH = 500;
    static final TableId TABLE = new TableId("public", "crash_items");
    static final List<ValueKind> KINDS = List.of(ValueKind.INTEGER, ValueKind.DECIMAL, ValueKind.TEXT,
            ValueKind.TIMESTAMPTZ, ValueKind.BOOLEAN, ValueKind.INTEGER);

    @TempDir
    Path dir;

    /**
     * Each crash scenario gets a broker of its own (unless {@code TIDEMARK_TEST_KAFKA} names one): its backlog and
     * its storm of killed consumers stay away from the broker the other ITs share.
     */
    private static LocalKafka ownKafka;
    private static String bootstrap;

    @BeforeAll
    static void startKafka() throws IOException {
        String external = System.getenv("TIDEMARK_TEST_KAFKA");
        if (external != null && !external.isBlank()) {
            bootstrap = TestInfrastructure.kafkaBootstrap();
        } else {
            ownKafka = LocalKafka.start(Files.createTempDirectory("tidemark-crash-kafka-"));
            bootstrap = ownKafka.bootstrapServers();
        }
    }

    @AfterAll
    static void stopKafka() {
        if (ownKafka != null) {
            ownKafka.close();
            ownKafka = null;
        }
    }

    /** The target under test, created fresh for one test; {@code close()} removes it. */
    abstract TargetDatabase target() throws Exception;

    /** One record as the test remembers it: the key and the row after it ({@code null} for a delete or tombstone). */
    private record Change(long id, Object[] row) {
    }

    /** What one kill left behind. */
    private record Kill(int run, long threshold, Map<Integer, Long> stored, long storedTotal, long millis) {
    }

    @Test
    void killNineAtRandomPointsOfABacklogLosesAndDuplicatesNothing() throws Exception {
        long seed = Long.getLong("tidemark.crash.seed", System.nanoTime());
        System.out.println(getClass().getSimpleName() + ": seed " + seed + " (rerun with -Dtidemark.crash.seed=" + seed + ")");
        try (TargetDatabase target = target()) {
            String name = ("crash_" + target.name() + "_" + ProcessHandle.current().pid() + "_" + Long.toHexString(seed & 0xffffff))
                    .replaceAll("[^A-Za-z0-9_]", "_");
            String topic = name + "." + TABLE.schema() + "." + TABLE.table();
            try {
                List<List<Change>> partitions = produceBacklog(bootstrap, topic, name, seed);
                Map<Integer, Long> end = new HashMap<>();
                for (int p = 0; p < PARTITIONS; p++) {
                    end.put(p, (long) partitions.get(p).size());
                }
                assertThat(end.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(RECORDS);
                assertThat(end.values()).as("every partition has records").allMatch(n -> n > 0);
                Path yaml = writePipeline(name, bootstrap, target);

                Random kills = new Random(seed ^ 0x5DEECE66DL);
                List<Kill> done = new ArrayList<>();
                try (Connection probe = target.connect()) {
                    for (int run = 0; run < KILLS; run++) {
                        // one kill in each of KILLS equal slices of 5%..85% of the backlog, at a random point of it
                        long threshold = (long) (RECORDS * (0.05 + 0.80 * (run + 0.1 + 0.8 * kills.nextDouble()) / KILLS));
                        Path log = dir.resolve("sink-run-" + run + ".log");
                        long started = System.nanoTime();
                        Process p = startSink(yaml, log);
                        try {
                            awaitWhileAlive(p, log, "sink run " + run + " stored offsets summing to ≥ " + threshold + " in " + target.name() + " " + target.jdbcUrl(),
                                    Duration.ofSeconds(120), Duration.ofMillis(10),
                                    () -> total(storedOffsets(target, probe, name, topic)) >= threshold);
                        } finally {
                            p.destroyForcibly(); // SIGKILL
                        }
                        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("run " + run + " died after SIGKILL").isTrue();
                        assertThat(p.exitValue()).as("run " + run + " exit status (128 + SIGKILL)").isEqualTo(137);
                        Map<Integer, Long> stored = storedOffsets(target, probe, name, topic);
                        long storedTotal = total(stored);
                        done.add(new Kill(run, threshold, stored, storedTotal, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)));
                        assertThat(storedTotal).as("run " + run + " was killed mid-backlog: stored " + stored + " of " + end)
                                .isGreaterThan(0).isLessThan(RECORDS).isGreaterThanOrEqualTo(threshold);
                        KeyChecksumComparison.Result atKill = compare(probe, target, stateAt(partitions, stored));
                        assertThat(atKill.equal())
                                .as("after kill %d the target holds exactly the partition prefixes its offsets %s name: %s",
                                        run, stored, atKill.summary())
                                .isTrue();
                    }

                    Path log = dir.resolve("sink-final.log");
                    Process p = startSink(yaml, log);
                    try {
                        awaitWhileAlive(p, log, "final sink run stored the end offsets " + end + " in " + target.name() + " " + target.jdbcUrl(),
                                Duration.ofSeconds(180), Duration.ofMillis(50),
                                () -> storedOffsets(target, probe, name, topic).equals(end));
                        p.destroy(); // SIGTERM: drain and exit 0
                        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("final run stopped after SIGTERM").isTrue();
                        assertThat(p.exitValue()).as("final run exit code; log:\n" + tail(log)).isZero();
                    } finally {
                        p.destroyForcibly();
                    }

                    KeyChecksumComparison.Result result = compare(probe, target, stateAt(partitions, end));
                    System.out.println(getClass().getSimpleName() + ": kills " + done.stream()
                            .map(k -> k.storedTotal() + " (≥ " + k.threshold() + ", after " + k.millis() + " ms)").toList() + " of " + RECORDS + "; final: " + result.summary());
                    assertThat(done).hasSize(KILLS);
                    assertThat(result.missing()).as("lost rows (seed " + seed + "): " + result.summary()).isEmpty();
                    assertThat(result.surplus()).as("surplus rows (seed " + seed + "): " + result.summary()).isEmpty();
                    assertThat(result.changed()).as("rows with a wrong checksum (seed " + seed + "): " + result.summary()).isEmpty();
                    assertThat(result.expectedRows()).as("the workload leaves rows to compare").isGreaterThan(RECORDS / 4);
                }
            } finally {
                deleteTopic(bootstrap, topic);
            }
        }
    }

    private KeyChecksumComparison.Result compare(Connection c, TargetDatabase target, Map<Long, Object[]> expected) throws Exception {
        return KeyChecksumComparison.compare(c, target.quotes(), TABLE.table(), SyntheticChangeStream.COLUMNS, KINDS, expected);
    }

    /** Produces the backlog and returns, per partition, the records in offset order. */
    private static List<List<Change>> produceBacklog(String bootstrap, String topic, String name, long seed) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
            await("every partition of " + topic + " has a leader").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions()
                            .stream().allMatch(p -> p.leader() != null && p.leader().id() >= 0));
        }
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "10");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(512 * 1024));
        // ~2.2 KB envelopes that repeat their schema compress ~7x: less disk and page cache for the broker
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        // Idempotent (no duplicates: the offsets below must be dense) with one request in flight: on a loaded 2-core
        // machine the test broker has answered the first batch of a new partition with NOT_LEADER_OR_FOLLOWER, and
        // with several batches in flight the idempotent producer then looped on OUT_OF_ORDER_SEQUENCE_NUMBER until
        // its records expired. One in flight keeps the sequence in order through any retry.
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "240000");
        SyntheticChangeStream stream = new SyntheticChangeStream(TABLE, seed, KEY_SPACE);
        EnvelopeEncoder encoder = new EnvelopeEncoder(name, "postgresql", "crash");
        List<Future<RecordMetadata>> sent = new ArrayList<>(RECORDS);
        List<Change> changes = new ArrayList<>(RECORDS);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                ChangeEvent e = stream.next();
                byte[] value = e instanceof ChangeEvent.Delete d && d.tombstone() ? EnvelopeEncoder.tombstone()
                        : encoder.value(e, SyntheticChangeStream.SCHEMA, 1_700_000_000_000L + i);
                sent.add(producer.send(new ProducerRecord<>(topic, encoder.key(e, SyntheticChangeStream.SCHEMA), value)));
                long id = (Long) e.key().get(SyntheticChangeStream.ID);
                changes.add(new Change(id, e instanceof ChangeEvent.Upsert u
                        ? SyntheticChangeStream.COLUMNS.stream().map(u.row()::get).toArray() : null));
            }
            producer.flush();
        }
        List<List<Change>> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            partitions.add(new ArrayList<>());
        }
        for (int i = 0; i < RECORDS; i++) {
            RecordMetadata m = sent.get(i).get();
            List<Change> list = partitions.get(m.partition());
            assertThat(m.offset()).as("offsets of a fresh topic are dense").isEqualTo(list.size());
            list.add(changes.get(i));
        }
        return partitions;
    }

    /** Best effort: a failure here must not hide the test's own outcome. */
    private static void deleteTopic(String bootstrap, String topic) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("could not delete topic " + topic + ": " + e);
        }
    }

    /** The rows after applying each partition's records below its offset. */
    private static Map<Long, Object[]> stateAt(List<List<Change>> partitions, Map<Integer, Long> offsets) {
        Map<Long, Object[]> rows = new HashMap<>();
        for (int p = 0; p < partitions.size(); p++) {
            List<Change> list = partitions.get(p);
            long upTo = offsets.getOrDefault(p, 0L);
            for (int i = 0; i < upTo; i++) {
                Change c = list.get(i);
                if (c.row() == null) {
                    rows.remove(c.id());
                } else {
                    rows.put(c.id(), c.row());
                }
            }
        }
        return rows;
    }

    private Path writePipeline(String name, String bootstrap, TargetDatabase target) throws IOException {
        Path yaml = dir.resolve("pipeline.yaml");
        Files.writeString(yaml, String.join("\n",
                "name: " + name,
                "source:                       # not contacted by `tidemark sink`; its tables name the topics",
                "  url: jdbc:postgresql://127.0.0.1:5432/unused",
                "  tables: [" + TABLE + "]",
                "kafka:",
                "  bootstrapServers: " + bootstrap,
                "  topicPrefix: " + name,
                "  properties:",
                "    # static membership: a restarted sink takes over its partitions at once instead of waiting",
                "    # for the killed member's session to expire",
                "    group.instance.id: " + name + "-sink",
                "    session.timeout.ms: 10000",
                "target:",
                "  url: " + target.jdbcUrl(),
                target.properties().getProperty("user") == null ? "" : "  user: " + target.properties().getProperty("user"),
                "  password: ${CRASH_TARGET_PASSWORD:-}",
                "  batchSize: " + BATCH,
                "stateDir: state",
                ""));
        return yaml;
    }

    private Process startSink(Path yaml, Path log) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(ChildJvm.tidemark(List.of("-Xmx512m", "-XX:+UseSerialGC"),
                "sink", "--config", yaml.toString()));
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        return pb.start();
    }

    /** Awaits {@code condition}; fails at once, with the log's tail, if the sink process exits first. */
    private static void awaitWhileAlive(Process p, Path log, String what, Duration atMost, Duration poll,
                                        Callable<Boolean> condition) {
        try {
            await(what).atMost(atMost).pollInterval(poll)
                    .failFast("the sink process exited", () -> !p.isAlive())
                    .until(condition);
        } catch (ConditionTimeoutException | TerminalFailureException e) {
            throw new AssertionError(e.getMessage() + "\n--- last lines of " + log + " ---\n" + tail(log), e);
        }
    }

    /** The offsets the pipeline stored in {@code tidemark_offsets} for {@code topic}, by partition; empty if none yet. */
    private static Map<Integer, Long> storedOffsets(TargetDatabase target, Connection c, String pipeline, String topic) {
        java.util.function.UnaryOperator<String> q = target.quotes()::quote;
        String sql = "SELECT " + q.apply("partition") + ", " + q.apply("next_offset") + " FROM " + q.apply("tidemark_offsets")
                + " WHERE " + q.apply("pipeline") + " = ? AND " + q.apply("topic") + " = ?";
        Map<Integer, Long> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, pipeline);
            ps.setString(2, topic);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getInt(1), rs.getLong(2));
                }
            }
        } catch (SQLException e) {
            return Map.of(); // the sink has not created the table yet
        }
        return out;
    }

    private static long total(Map<Integer, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
