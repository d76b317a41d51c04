package dev.tidemark.cli.observability;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.pipeline.PipelineMetrics;
import dev.tidemark.event.TableId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The pipeline's meters in one Prometheus registry (Micrometer), fed by capture and the sink through
 * {@link PipelineMetrics}. Every meter carries the tag {@code pipeline}. Thread-safe; the hooks never block.
 *
 * <ul>
 * <li>{@code tidemark_events_captured_total{table}}, {@code tidemark_events_applied_total{table}}: counters</li>
 * <li>{@code tidemark_batch_apply_seconds}: timer with histogram buckets from 1 ms to 30 s ({@link #BUCKETS}; one commit
 * of rows + offsets)</li>
 * <li>{@code tidemark_consumer_lag_records{topic,partition}}, {@code tidemark_consumer_lag_seconds{topic,partition}}:
 * gauges ({@link PartitionLag})</li>
 * <li>{@code tidemark_build_info{version}}: gauge, always 1 ({@link BuildInfo})</li>
 * <li>{@code tidemark_dead_letters_total}: counter of poison records the sink sent to its dead-letter topic, once
 * {@link #deadLetters} names the count</li>
 * <li>the JVM's and the process's meters of Micrometer's binders ({@code jvm_memory_*}, {@code jvm_gc_*},
 * {@code jvm_threads_*}, {@code jvm_classes_*}, {@code process_cpu_usage}, {@code system_cpu_*},
 * {@code process_uptime_seconds}, {@code process_start_time_seconds}, {@code process_files_*})</li>
 * </ul>
 * The probes' gauges (WAL retained, watermark runs, reconcile results) are registered by {@link Probes}.
 * {@link #close()} detaches the garbage collection listener.
 */
public final class PipelineMeters implements PipelineMetrics, AutoCloseable {
    /** The apply latency histogram's upper bounds: 1 ms to 30 s (Micrometer's own percentile histogram has ~70). */
    static final Duration[] BUCKETS = java.util.stream.LongStream.of(1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000)
            .mapToObj(Duration::ofMillis).toArray(Duration[]::new);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PipelineConfig config;
    private final Map<TableId, Counter> captured = new ConcurrentHashMap<>();
    private final Map<TableId, Counter> applied = new ConcurrentHashMap<>();
    private final Map<String, PartitionState> partitions = new ConcurrentHashMap<>();
    private final Timer batch;
    private final LongSupplier clock;
    private final JvmGcMetrics gc = new JvmGcMetrics();

    public PipelineMeters(PipelineConfig config) {
        this(config, System::currentTimeMillis);
    }

    PipelineMeters(PipelineConfig config, LongSupplier clock) {
        this.config = config;
        this.clock = clock;
        registry.config().commonTags("pipeline", config.name());
        for (TableId t : config.source().tables()) {
            captured.put(t, Counter.builder("tidemark.events.captured").description("change events captured and acknowledged by Kafka")
                    .tag("table", t.toString()).register(registry));
            applied.put(t, Counter.builder("tidemark.events.applied").description("change events committed to the target")
                    .tag("table", t.toString()).register(registry));
        }
        batch = Timer.builder("tidemark.batch.apply").description("one sink batch committed with its offsets")
                .serviceLevelObjectives(BUCKETS).register(registry);
        Gauge.builder("tidemark.build.info", () -> 1).tag("version", BuildInfo.version())
                .description("always 1; the version label is the build's Maven version").register(registry);
        for (MeterBinder b : new MeterBinder[] {new JvmMemoryMetrics(), gc, new JvmThreadMetrics(), new ClassLoaderMetrics(),
            new ProcessorMetrics(), new UptimeMetrics(), new FileDescriptorMetrics()}) {
            b.bindTo(registry);
        }
    }

    /** Registers {@code tidemark_dead_letters_total}, read from {@code count} (monotonic) at each scrape. */
    public void deadLetters(LongSupplier count) {
        FunctionCounter.builder("tidemark.dead.letters", count, c -> c.getAsLong())
                .description("poison records the sink sent to target.deadLetterTopic (after Kafka acknowledged them)").register(registry);
    }

    @Override
    public void close() {
        gc.close();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Prometheus text format of every meter. */
    public String scrape() {
        return registry.scrape();
    }

    @Override
    public void captured(TableId table, long events) {
        Counter c = captured.get(table);
        if (c != null) {
            c.increment(events);
        }
    }

    @Override
    public void applied(TableId table, long events) {
        applied.computeIfAbsent(table, t -> Counter.builder("tidemark.events.applied").tag("table", t.toString()).register(registry))
                .increment(events);
    }

    @Override
    public void batchApplied(Duration took) {
        batch.record(took);
    }

    @Override
    public void partitionApplied(String topic, int partition, long nextOffset, long lastTimestampMs) {
        PartitionState p = partition(topic, partition);
        p.applied = nextOffset;
        p.lastTimestamp = lastTimestampMs;
    }

    @Override
    public void partitionFetched(String topic, int partition, long position, long endOffset) {
        PartitionState p = partition(topic, partition);
        p.position = position;
        p.end = endOffset;
    }

    public long capturedCount(TableId table) {
        Counter c = captured.get(table);
        return c == null ? 0 : (long) c.count();
    }

    public long appliedCount(TableId table) {
        Counter c = applied.get(table);
        return c == null ? 0 : (long) c.count();
    }

    /** The lag of every partition the sink has seen, by "topic-partition", sorted. */
    public Map<String, PartitionLag> lags() {
        Map<String, PartitionLag> out = new java.util.TreeMap<>();
        partitions.forEach((k, p) -> out.put(k, p.lag(clock.getAsLong())));
        return out;
    }

    private PartitionState partition(String topic, int partition) {
        return partitions.computeIfAbsent(topic + "-" + partition, k -> {
            PartitionState p = new PartitionState();
            Tags tags = Tags.of("topic", topic, "partition", Integer.toString(partition));
            Gauge.builder("tidemark.consumer.lag.records", p, s -> s.lag(clock.getAsLong()).records()).tags(tags)
                    .description("records in Kafka not yet committed to the target").register(registry);
            Gauge.builder("tidemark.consumer.lag.seconds", p, s -> s.lag(clock.getAsLong()).seconds()).tags(tags)
                    .description("age of the last applied record while records wait, 0 when caught up").register(registry);
            return p;
        });
    }

    public PipelineConfig config() {
        return config;
    }

    /** What the sink last reported for one partition; -1 = not yet known. */
    private static final class PartitionState {
        volatile long end = -1;
        volatile long position = -1;
        volatile long applied = -1;
        volatile long lastTimestamp = -1;

        PartitionLag lag(long now) {
            return PartitionLag.of(end, position, applied, lastTimestamp, now);
        }
    }
}
