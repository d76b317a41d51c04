package dev.tidemark.bench;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeDecoder;
import dev.tidemark.event.EventOrigin;
import dev.tidemark.sink.jdbc.BatchPlan;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.PartitionOffset;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.sink.kafka.SinkSettings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One contender in its own JVM (so its heap and RSS peaks are its own): consumes the whole pre-loaded topic once and
 * prints progress lines, then one {@code RESULT key=value;…} line for the parent.
 *
 * <p>Timing: the clock that gives events/s starts when the first batch is committed to the target and stops when the
 * last is; the events of that first batch are not counted. This leaves consumer start-up and the group join out of
 * the rate for every contender alike ({@code wall} includes them).
 */
final class ContenderRun {
    private final Contender contender;
    private final String bootstrap;
    private final String topic;
    private final int batch;
    private final String url;
    private final String user;
    private final long expectRows;
    private final long expectSum;
    private final String group;
    private final Map<String, String> consumerExtra = new HashMap<>();
    private long decodeNanos = -1;
    private long applyNanos = -1;

    private ContenderRun(Map<String, String> o) {
        this.contender = Contender.byId(o.get("contender")).orElseThrow(() -> new IllegalArgumentException("unknown contender " + o.get("contender")));
        this.bootstrap = o.get("bootstrap");
        this.topic = o.get("topic");
        // the Debezium JDBC sink's own defaults (batch.size 500, a Connect worker's max.poll.records 500) in one of its runs
        this.batch = contender == Contender.DEBEZIUM_JDBC_POSTGRES_DEFAULT ? 500 : Integer.parseInt(o.get("batch"));
        this.url = o.get("url");
        this.user = o.get("user");
        this.expectRows = Long.parseLong(o.getOrDefault("expect-rows", "-1"));
        this.expectSum = Long.parseLong(o.getOrDefault("expect-sum", "-1"));
        this.group = "bench-" + contender.id + "-" + ProcessHandle.current().pid();
        for (String kv : o.getOrDefault("consumer", "").split(",")) {
            if (kv.contains("=")) {
                consumerExtra.put(kv.substring(0, kv.indexOf('=')).trim(), kv.substring(kv.indexOf('=') + 1).trim());
            }
        }
    }

    static int run(Map<String, String> options) throws Exception {
        ContenderRun r = new ContenderRun(options);
        try (MemoryPeaks memory = new MemoryPeaks()) {
            Progress progress;
            String check;
            Map<TopicPartition, Long> end = endOffsets(r.bootstrap, r.topic);
            long total = end.values().stream().mapToLong(Long::longValue).sum();
            progress = new Progress(r.contender.id, total);
            switch (r.contender) {
                case TIDEMARK_SQLITE, TIDEMARK_POSTGRES -> r.tidemark(progress, total);
                case STAGES_TIDEMARK_SQLITE, STAGES_TIDEMARK_POSTGRES -> r.stages(progress, end);
                case RAW_SQLITE, RAW_PG_ROWS, RAW_PG_UNNEST -> r.raw(progress, end);
                case KAFKA_ONLY, DECODE_RAW, DECODE_TIDEMARK -> r.noWrites(progress, end);
                case DEBEZIUM_JDBC_POSTGRES, DEBEZIUM_JDBC_POSTGRES_DEFAULT -> {
                    try (KafkaConsumer<byte[], byte[]> consumer = r.consumer()) {
                        DebeziumJdbcSinkRun.run(progress, consumer, r.topic, end, r.url, r.user, r.batch,
                                r.contender == Contender.DEBEZIUM_JDBC_POSTGRES);
                    }
                }
            }
            check = r.check();
            System.out.println("RESULT contender=" + r.contender.id + ";events=" + total
                    + ";seconds=" + fmt(progress.seconds()) + ";eps=" + fmt(progress.eventsPerSecond())
                    + ";wall=" + fmt(progress.wallSeconds()) + ";heap=" + memory.peakHeapBytes()
                    + ";rss=" + MemoryPeaks.peakRssBytes() + ";decode=" + fmt(r.decodeNanos < 0 ? -1 : r.decodeNanos / 1e9) + ";apply=" + fmt(r.applyNanos < 0 ? -1 : r.applyNanos / 1e9)
                    + ";check=" + check);
        }
        return 0;
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }

    /** The real thing: KafkaSinkRunner on its own threads, watched from here every 10 ms. */
    private void tidemark(Progress progress, long total) throws Exception {
        JdbcChangeSink sink = JdbcChangeSink.open(url, props(), SinkOptions.defaults(group));
        KafkaSinkRunner runner = new KafkaSinkRunner(new SinkSettings(bootstrap, group, List.of(topic), batch,
                Duration.ofMillis(200), new ReplayFrom.Stored(), consumerExtra), sink);
        Thread thread = new Thread(runner, "tidemark-sink");
        thread.start();
        while (runner.eventsApplied() < total) {
            if (runner.isFinished()) {
                throw new IllegalStateException("the sink stopped after " + runner.eventsApplied() + " events: "
                        + runner.failure().map(Throwable::toString).orElse("no failure recorded"));
            }
            progress.observe(runner.eventsApplied());
            Thread.sleep(10); // ±10 ms on a run of tens of seconds; a 1 ms loop cost this contender ~2.5 s of CPU
        }
        progress.observe(runner.eventsApplied());
        progress.done();
        runner.close();
    }

    /** The sink loop written out on one thread (decode, apply, informational commitAsync), to time decoding and applying apart; KafkaSinkRunner overlaps the two. */
    private void stages(Progress progress, Map<TopicPartition, Long> end) throws Exception {
        EnvelopeDecoder decoder = new EnvelopeDecoder();
        decodeNanos = 0;
        applyNanos = 0;
        try (JdbcChangeSink sink = JdbcChangeSink.open(url, props(), SinkOptions.defaults(group));
             KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            consumer.subscribe(List.of(topic));
            Map<TopicPartition, Long> position = new HashMap<>();
            long applied = 0;
            while (!reached(position, end)) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                long t0 = System.nanoTime();
                List<ChangeEvent> events = new ArrayList<>(records.count());
                Map<TopicPartition, PartitionOffset> next = new LinkedHashMap<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    events.add(decoder.decode(new EventOrigin(r.topic(), r.partition(), r.offset(), r.key()), r.key(), r.value()));
                    next.put(new TopicPartition(r.topic(), r.partition()), new PartitionOffset(r.topic(), r.partition(), r.offset() + 1));
                }
                long t1 = System.nanoTime();
                sink.apply(events, next.values());
                long t2 = System.nanoTime();
                decodeNanos += t1 - t0;
                applyNanos += t2 - t1;
                next.forEach((tp, o) -> position.put(tp, o.nextOffset()));
                Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
                next.forEach((tp, o) -> commit.put(tp, new OffsetAndMetadata(o.nextOffset())));
                consumer.commitAsync(commit, null); // as KafkaSinkRunner does (informational)
                applied += records.count();
                progress.observe(applied);
            }
            progress.done();
        }
    }

    /** The hand-written baseline: decode, collapse per key, one transaction per batch. */
    private void raw(Progress progress, Map<TopicPartition, Long> end) throws Exception {
        RawChange.Decoder decoder = new RawChange.Decoder();
        decodeNanos = 0;
        applyNanos = 0;
        try (RawTarget target = RawTarget.open(contender.id, url, user); KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            consumer.subscribe(List.of(topic));
            Map<TopicPartition, Long> position = new HashMap<>();
            Map<Long, RawChange> collapsed = new LinkedHashMap<>();
            long applied = 0;
            while (!reached(position, end)) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                long t0 = System.nanoTime();
                collapsed.clear();
                Map<TopicPartition, Long> next = new HashMap<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    RawChange c = decoder.decode(r.value());
                    if (c != null) {
                        collapsed.put(c.id(), c); // last change of a key wins
                    }
                    next.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
                }
                long t1 = System.nanoTime();
                target.apply(collapsed.values(), next);
                long t2 = System.nanoTime();
                decodeNanos += t1 - t0;
                applyNanos += t2 - t1;
                position.putAll(next);
                applied += records.count();
                progress.observe(applied);
            }
            progress.done();
        }
    }

    /** Breakdown runs: consume (and decode) without writing. */
    private void noWrites(Progress progress, Map<TopicPartition, Long> end) throws Exception {
        RawChange.Decoder raw = new RawChange.Decoder();
        EnvelopeDecoder tidemark = new EnvelopeDecoder();
        decodeNanos = 0;
        long sink = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            consumer.subscribe(List.of(topic));
            Map<TopicPartition, Long> position = new HashMap<>();
            Map<Long, RawChange> collapsed = new LinkedHashMap<>();
            long applied = 0;
            while (!reached(position, end)) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                long t0 = System.nanoTime();
                List<ChangeEvent> events = new ArrayList<>(records.count());
                collapsed.clear();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    switch (contender) {
                        case DECODE_RAW -> {
                            RawChange c = raw.decode(r.value());
                            if (c != null) {
                                collapsed.put(c.id(), c);
                            }
                        }
                        case DECODE_TIDEMARK -> events.add(tidemark.decode(new EventOrigin(r.topic(), r.partition(), r.offset(), r.key()), r.key(), r.value()));
                        default -> sink += r.serializedValueSize();
                    }
                    position.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
                }
                if (contender == Contender.DECODE_TIDEMARK) {
                    sink += BatchPlan.of(events).size();
                }
                decodeNanos += System.nanoTime() - t0;
                applied += records.count();
                progress.observe(applied);
            }
            progress.done();
        }
        if (sink == Long.MIN_VALUE) {
            System.out.println(sink); // keeps the work observable
        }
    }

    /** Row count and id sum in the target against what the workload left live. */
    private String check() throws Exception {
        if (contender.target == Contender.Target.NONE) {
            return "n/a";
        }
        try (Connection c = DriverManager.getConnection(url, props())) {
            long[] got = RawTarget.countAndSum(c);
            boolean ok = got[0] == expectRows && got[1] == expectSum;
            return (ok ? "ok " : "MISMATCH ") + got[0] + " rows (expected " + expectRows + "), sum(id) " + got[1]
                    + (ok ? "" : " (expected " + expectSum + ")");
        }
    }

    private Properties props() {
        Properties p = new Properties();
        if (user != null && !user.isEmpty()) {
            p.setProperty("user", user);
        }
        return p;
    }

    /** The same consumer settings KafkaSinkRunner uses. */
    private KafkaConsumer<byte[], byte[]> consumer() {
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

    static Map<TopicPartition, Long> endOffsets(String bootstrap, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions().size();
            Map<TopicPartition, OffsetSpec> query = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                query.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            Map<TopicPartition, Long> end = new HashMap<>();
            admin.listOffsets(query).all().get(30, TimeUnit.SECONDS).forEach((tp, info) -> end.put(tp, info.offset()));
            return end;
        }
    }

    private static boolean reached(Map<TopicPartition, Long> position, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (position.getOrDefault(e.getKey(), 0L) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Progress lines every 2 s and the measured interval. */
    static final class Progress {
        private final String name;
        private final long total;
        private final long start = System.nanoTime();
        private long first = -1;
        private long firstEvents;
        private long events;
        private long end = -1;
        private long lastPrint = System.nanoTime();

        Progress(String name, long total) {
            this.name = name;
            this.total = total;
        }

        void observe(long applied) {
            long now = System.nanoTime();
            if (first < 0 && applied > 0) {
                first = now;
                firstEvents = applied;
            }
            events = applied;
            if (now - lastPrint >= 2_000_000_000L) {
                lastPrint = now;
                double s = first < 0 ? 0 : (now - first) / 1e9;
                System.out.printf(Locale.ROOT, "    %-24s %,12d / %,d events  %,10.0f events/s%n", name, applied, total,
                        s > 0 ? (applied - firstEvents) / s : 0.0);
            }
        }

        void done() {
            end = System.nanoTime();
        }

        double seconds() {
            return (end - first) / 1e9;
        }

        double eventsPerSecond() {
            return (events - firstEvents) / seconds();
        }

        double wallSeconds() {
            return (end - start) / 1e9;
        }
    }
}
