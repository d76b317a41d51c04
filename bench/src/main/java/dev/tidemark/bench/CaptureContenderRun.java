package dev.tidemark.bench;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.connector.debezium.CaptureChoice;
import dev.tidemark.connector.debezium.DebeziumChangeSource;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.event.TableId;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One JVM capture contender of {@code bench/capture.sh}: drains one pre-created replication slot per round (round 1 is
 * the cold JVM, later rounds warm) and prints one {@code RESULT key=value;…} line per round for the parent.
 *
 * <p>Clock: starts when the first batch of records has been handled (Debezium engines) or first acknowledged
 * ({@code tidemark-capture}); the records counted until then are left out, so connector start-up is out of the rate
 * alike for every engine. It stops when every change of the backlog has been handled (acknowledged by Kafka for the
 * Kafka contenders). CPU is this whole JVM's CPU time over the round (all threads, start-up included).
 */
final class CaptureContenderRun {
    private static final Duration ROUND_TIMEOUT = Duration.ofMinutes(30);

    private final Map<String, String> o;
    private final CaptureContender contender;
    private final long changes;
    private final long records;

    private CaptureContenderRun(Map<String, String> o) {
        this.o = o;
        this.contender = CaptureContender.byId(o.get("contender"));
        this.changes = Long.parseLong(o.get("changes"));
        this.records = changes + Long.parseLong(o.get("deletes")); // every delete is followed by its tombstone
    }

    static int run(Map<String, String> options) throws Exception {
        CaptureContenderRun r = new CaptureContenderRun(options);
        try (MemoryPeaks memory = new MemoryPeaks()) {
            int round = 0;
            for (String slot : options.get("slots").split(",")) {
                round++;
                long cpuBefore = cpuNanos();
                double[] timed = switch (r.contender) {
                    case DEBEZIUM_NOOP -> r.debezium(slot, round, false);
                    case DEBEZIUM_KAFKA -> r.debezium(slot, round, true);
                    case TIDEMARK_CAPTURE -> r.tidemark(slot, round);
                    case TIDEMARK_RUN_SQLITE, TIDEMARK_RUN_POSTGRES -> r.endToEnd(slot, round);
                    case PG_RECVLOGICAL -> throw new IllegalArgumentException("pg_recvlogical runs in the parent");
                };
                System.out.println("RESULT contender=" + r.contender.id + ";round=" + round + ";slot=" + slot + ";changes=" + (long) timed[1]
                        + ";seconds=" + fmt(timed[0]) + ";wall=" + fmt(timed[2]) + ";cpu=" + fmt((cpuNanos() - cpuBefore) / 1e9)
                        + ";heap=" + memory.peakHeapBytes() + ";rss=" + MemoryPeaks.peakRssBytes());
            }
        }
        return 0;
    }

    /** Debezium's embedded engine, JSON format, with a no-op consumer or one that sends each batch and awaits its acks. */
    private double[] debezium(String slot, int round, boolean kafka) throws Exception {
        Properties p = engineProperties(slot, round);
        String topic = topicPrefix(round) + ".public." + CaptureBacklog.TABLE;
        KafkaProducer<byte[], byte[]> producer = kafka ? new KafkaProducer<>(producerProps(), new ByteArraySerializer(), new ByteArraySerializer()) : null;
        Clock clock = new Clock();
        CountDownLatch done = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Throwable[] failure = new Throwable[1];
        long start = System.nanoTime();
        DebeziumEngine<ChangeEvent<String, String>> engine = DebeziumEngine.create(Json.class).using(p)
                .notifying((batch, committer) -> {
                    if (handle(batch, committer, producer, topic, clock) >= records) {
                        done.countDown();
                    }
                })
                .using((success, message, error) -> {
                    if (!success) {
                        failure[0] = error == null ? new IllegalStateException(message) : error;
                    }
                    done.countDown();
                    stopped.countDown();
                })
                .build();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        executor.execute(engine);
        try {
            if (!done.await(ROUND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException(contender.id + " round " + round + ": slot " + slot + " gave " + clock.seen
                        + " of " + records + " records within " + ROUND_TIMEOUT);
            }
            if (failure[0] != null) {
                throw new IllegalStateException(contender.id + " round " + round + ": engine stopped: " + failure[0], failure[0]);
            }
            return new double[] {clock.seconds(), changes, (System.nanoTime() - start) / 1e9};
        } finally {
            engine.close();
            stopped.await(60, TimeUnit.SECONDS);
            executor.shutdownNow();
            if (producer != null) {
                producer.close(Duration.ofSeconds(10));
            }
        }
    }

    /** The engine's settings for this round: the pre-created slot, the backlog table, file offsets in the work folder. */
    private Properties engineProperties(String slot, int round) throws java.io.IOException {
        Path offsets = Files.createDirectories(Path.of(o.get("workdir"))).resolve(contender.id + "-" + round + ".offsets");
        Properties p = new Properties();
        p.setProperty("name", contender.id + "-" + round);
        p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.FileOffsetBackingStore");
        p.setProperty("offset.storage.file.filename", offsets.toString());
        p.setProperty("database.hostname", o.get("pg-host"));
        p.setProperty("database.port", o.get("pg-port"));
        p.setProperty("database.user", "postgres");
        p.setProperty("database.password", "");
        p.setProperty("database.dbname", o.get("pg-db"));
        p.setProperty("topic.prefix", topicPrefix(round));
        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("slot.name", slot);
        p.setProperty("publication.name", o.get("publication"));
        p.setProperty("publication.autocreate.mode", "disabled");
        p.setProperty("table.include.list", "public\\." + CaptureBacklog.TABLE);
        p.setProperty("snapshot.mode", "no_data"); // the slot was created before the backlog: stream all of it
        p.setProperty("converter.schemas.enable", o.get("debezium-schemas"));
        p.putAll(keyValues(o.getOrDefault("debezium", "")));
        return p;
    }

    /**
     * One engine batch: sent to {@code topic} and every ack awaited when there is a producer, each record marked
     * processed, the batch finished; returns the records of the backlog's topic seen so far.
     */
    private static long handle(List<ChangeEvent<String, String>> batch, DebeziumEngine.RecordCommitter<ChangeEvent<String, String>> committer,
                               KafkaProducer<byte[], byte[]> producer, String topic, Clock clock) throws InterruptedException {
        List<Future<RecordMetadata>> acks = new ArrayList<>(batch.size());
        if (producer != null) {
            for (ChangeEvent<String, String> e : batch) {
                acks.add(producer.send(new ProducerRecord<>(topic, bytes(e.key()), bytes(e.value()))));
            }
        }
        for (int i = 0; i < batch.size(); i++) {
            if (producer != null) {
                try {
                    acks.get(i).get();
                } catch (java.util.concurrent.ExecutionException ex) {
                    throw new IllegalStateException("Kafka did not acknowledge a record for " + topic, ex.getCause());
                }
            }
            committer.markProcessed(batch.get(i));
        }
        committer.markBatchFinished();
        int data = 0;
        for (ChangeEvent<String, String> e : batch) {
            if (topic.equals(e.destination())) {
                data++;
            }
        }
        return clock.batchHandled(data);
    }

    /** Tidemark's capture, exactly as {@code tidemark capture --accept-gap} runs it (the slot holds the backlog). */
    private double[] tidemark(String slot, int round) throws Exception {
        PipelineConfig config = pipeline(slot, round, "jdbc:sqlite:" + state(round).resolve("unused.db"));
        long start = System.nanoTime();
        Clock clock = new Clock();
        try (DebeziumChangeSource capture = new DebeziumChangeSource(config, CaptureChoice.ACCEPT_GAP, null)) {
            capture.start();
            long deadline = System.nanoTime() + ROUND_TIMEOUT.toNanos();
            long last = 0;
            while (last < records) {
                if (capture.isStopped() || System.nanoTime() > deadline) {
                    throw new IllegalStateException(contender.id + " round " + round + ": capture " + (capture.isStopped() ? "stopped" : "timed out")
                            + " after " + last + " of " + records + " records: " + capture.failure().map(Throwable::toString).orElse("no failure recorded"));
                }
                Thread.sleep(2); // polling costs this contender a little CPU; ±2 ms on the clock
                long now = capture.eventsSent();
                if (now > last) {
                    clock.batchHandled(now - last);
                    last = now;
                }
            }
            return new double[] {clock.seconds(), changes, (System.nanoTime() - start) / 1e9};
        }
    }

    /**
     * {@code tidemark run --accept-gap}: capture and sink in this JVM ({@link Sidecar}); the clock runs from the first
     * batch committed to the target (rows and offsets in one transaction) to the last.
     */
    private double[] endToEnd(String slot, int round) throws Exception {
        String url;
        String database = null;
        if (contender == CaptureContender.TIDEMARK_RUN_POSTGRES) {
            database = "tidemark_capture_bench_" + round;
            adminSql("DROP DATABASE IF EXISTS \"" + database + "\" WITH (FORCE)");
            adminSql("CREATE DATABASE \"" + database + "\"");
            url = o.get("target-pg") + database + "?user=" + o.get("target-pg-user");
        } else {
            url = "jdbc:sqlite:" + state(round).resolve("target.db");
        }
        long start = System.nanoTime();
        Clock clock = new Clock();
        try (Sidecar run = Sidecar.start(pipeline(slot, round, url), true, true, new ReplayFrom.Stored(), CaptureChoice.ACCEPT_GAP, null)) {
            KafkaSinkRunner sink = run.sink().orElseThrow();
            long deadline = System.nanoTime() + ROUND_TIMEOUT.toNanos();
            long last = 0;
            while (last < records) {
                if (run.halted() || sink.isFinished() || System.nanoTime() > deadline) {
                    throw new IllegalStateException(contender.id + " round " + round + ": stopped after " + last + " of " + records
                            + " events applied: " + run.failure().or(sink::failure).map(Throwable::toString).orElse("timed out"));
                }
                Thread.sleep(10); // ±10 ms on the clock
                long now = sink.eventsApplied();
                if (now > last) {
                    clock.batchHandled(now - last);
                    last = now;
                }
            }
            double[] timed = {clock.seconds(), changes, (System.nanoTime() - start) / 1e9};
            checkTarget(url, round);
            return timed;
        } finally {
            if (database != null) {
                adminSql("DROP DATABASE IF EXISTS \"" + database + "\" WITH (FORCE)");
            }
        }
    }

    /** The target holds the backlog's end state: inserted minus deleted rows, the updated ones updated. */
    private void checkTarget(String url, int round) throws java.sql.SQLException {
        long rows = Long.parseLong(o.get("inserts")) - Long.parseLong(o.get("deletes"));
        long shipped = Long.parseLong(o.get("updates"));
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url);
             java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT count(*), sum(CASE WHEN \"status\" = 'shipped' THEN 1 ELSE 0 END) FROM \""
                     + CaptureBacklog.TABLE + "\"")) {
            rs.next();
            if (rs.getLong(1) != rows || rs.getLong(2) != shipped) {
                throw new IllegalStateException(contender.id + " round " + round + ": target table " + CaptureBacklog.TABLE + " holds "
                        + rs.getLong(1) + " rows (" + rs.getLong(2) + " updated), expected " + rows + " (" + shipped + ")");
            }
        }
    }

    private void adminSql(String sql) throws java.sql.SQLException {
        Properties p = new Properties();
        p.setProperty("user", o.get("target-pg-user"));
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(o.get("target-pg") + "postgres", p);
             java.sql.Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private Path state(int round) throws java.io.IOException {
        return Files.createDirectories(Path.of(o.get("workdir")).resolve(contender.id + "-" + round));
    }

    private PipelineConfig pipeline(String slot, int round, String targetUrl) throws java.io.IOException {
        Path state = state(round);
        String db = o.get("pg-db");
        SourceConfig source = new SourceConfig("jdbc:postgresql://" + o.get("pg-host") + ":" + o.get("pg-port") + "/" + db,
                "postgres", Secret.empty(), slot, o.get("publication"), List.of(new TableId("public", CaptureBacklog.TABLE)), true,
                Duration.ofMillis(10));
        PipelineConfig config = new PipelineConfig(contender.id + "-" + round, source,
                new KafkaConfig(o.get("bootstrap"), topicPrefix(round), Integer.parseInt(o.get("partitions")), (short) 1,
                        keyValues(o.getOrDefault("tidemark-kafka", ""))),
                new TargetConfig(targetUrl, null, Secret.empty(), 2000, "__tidemark_position", false),
                state);
        return config;
    }

    /** {@code k=v,k=v} as a map (the bench's pass-through options). */
    static Map<String, String> keyValues(String list) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (String kv : list.split(",")) {
            if (kv.contains("=")) {
                m.put(kv.substring(0, kv.indexOf('=')).trim(), kv.substring(kv.indexOf('=') + 1).trim());
            }
        }
        return m;
    }

    private Properties producerProps() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, o.get("bootstrap"));
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, contender.id);
        return p;
    }

    private String topicPrefix(int round) {
        return o.get("variant") + "-" + contender.id.replace('_', '-') + "-" + round;
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static long cpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }

    /**
     * First batch handled → last record: the records of the first batch start the clock and are not counted.
     * Rate = counted records × changes / records, so tombstones do not inflate it.
     */
    private final class Clock {
        private long first = -1;
        private long last;
        private long seen;
        private long counted;

        synchronized long batchHandled(long n) {
            long now = System.nanoTime();
            seen += n;
            if (first < 0) {
                first = now;
            } else {
                counted += n;
            }
            last = now;
            return seen;
        }

        /** Seconds a backlog of {@link #changes} changes takes at the measured rate. */
        synchronized double seconds() {
            double perRecord = (last - first) / 1e9 / Math.max(1, counted);
            return perRecord * records;
        }
    }
}
