package dev.tidemark.cli.observability;

import dev.tidemark.cli.proof.ProofGauges;
import dev.tidemark.cli.proof.ReconcileRuns;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.reconcile.ReconcileHistory;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, every {@value #INTERVAL_SECONDS} s on its own thread and its own connections (never capture's or the
 * sink's), what the pipeline's halves do not know themselves: the replication slot's WAL retained
 * ({@link SlotWal}), whether Kafka answers ({@link KafkaProbe}), the watermark runs recorded in the target
 * ({@link WatermarkRuns}), the scheduled reconcile results ({@link ReconcileRuns}) and the last reconcile
 * ({@link LastReconcile}); registers their gauges. A probe that fails
 * leaves its value unknown (NaN) and says why in {@link #problems()}; it never stops the pipeline.
 */
public final class Probes implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Probes.class);
    static final int INTERVAL_SECONDS = 5;

    private final PipelineConfig config;
    private final KafkaProbe kafka;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tidemark-observability-probes");
        t.setDaemon(true);
        return t;
    });
    private volatile OptionalLong walRetained = OptionalLong.empty();
    private volatile Optional<Boolean> kafkaReachable = Optional.empty();
    private volatile String kafkaProblem = "";
    private volatile List<WatermarkRuns.Run> runs = List.of();
    private volatile Optional<LastReconcile.Result> reconcile = Optional.empty();
    private volatile Optional<ReconcileHistory.Summary> proofHistory = Optional.empty();
    private final Map<String, String> problems = new ConcurrentHashMap<>();
    private final Map<String, WatermarkRuns.Summary> runGauges = new ConcurrentHashMap<>();
    private final Map<String, long[]> reconcileGauges = new ConcurrentHashMap<>();
    private final MeterRegistry registry;
    private final boolean readTarget;
    private final ProofGauges proof;

    /** @param readTarget whether this process writes the target (the sink runs here): only then are its watermark runs read */
    public Probes(PipelineConfig config, MeterRegistry registry, boolean readTarget) {
        this.config = config;
        this.readTarget = readTarget;
        this.registry = registry;
        this.kafka = new KafkaProbe(config);
        this.proof = new ProofGauges(registry);
        Gauge.builder("tidemark.slot.wal.retained.bytes", this, p -> p.walRetained.isPresent() ? p.walRetained.getAsLong() : Double.NaN)
                .description("WAL the replication slot keeps on the source (pg_current_wal_lsn() - restart_lsn)")
                .tag("slot", config.source().slot()).register(registry);
    }

    /** Runs the probes now and then every few seconds. */
    public Probes start() {
        timer.scheduleWithFixedDelay(this::probeAll, 0, INTERVAL_SECONDS, TimeUnit.SECONDS);
        return this;
    }

    private void probeAll() {
        try {
            walRetained = attempt("slot", () -> SlotWal.read(config)).orElse(OptionalLong.empty());
            String why = kafka.problem();
            kafkaReachable = Optional.of(why == null);
            kafkaProblem = why == null ? "" : why;
            runs = readTarget ? attempt("watermark runs", () -> WatermarkRuns.read(config)).orElse(List.of()) : List.of();
            for (WatermarkRuns.Summary s : WatermarkRuns.summarize(runs)) {
                runGauges.computeIfAbsent(s.table(), t -> {
                    Gauge.builder("tidemark.watermark.runs", runGauges, g -> g.get(t).runs()).tag("table", t)
                            .description("watermark runs recorded in the target's tidemark_watermark_runs").register(registry);
                    Gauge.builder("tidemark.watermark.last.run.rows", runGauges, g -> g.get(t).lastRows()).tag("table", t)
                            .description("rows copied by the last watermark run").register(registry);
                    return s;
                });
                runGauges.put(s.table(), s);
            }
            if (readTarget) {
                attempt("scheduled reconcile", () -> ReconcileRuns.read(config)).ifPresent(summary -> {
                    proof.update(summary);
                    proofHistory = Optional.of(summary);
                });
            }
            reconcile = attempt("reconcile", () -> LastReconcile.read(config)).orElse(Optional.empty());
            reconcile.ifPresent(r -> r.tables().forEach(t -> {
                long[] v = {t.missing(), t.surplus(), t.changed()};
                reconcileGauges.computeIfAbsent(t.table(), name -> {
                    String[] kinds = {"missing", "surplus", "changed"};
                    for (int i = 0; i < kinds.length; i++) {
                        int k = i;
                        Gauge.builder("tidemark.reconcile.differences", reconcileGauges, g -> g.get(name)[k]).tag("table", name)
                                .tag("kind", kinds[i]).description("keys found different by the last tidemark reconcile").register(registry);
                    }
                    return v;
                });
                reconcileGauges.put(t.table(), v);
            }));
        } catch (RuntimeException e) {
            log.debug("observability probes failed: {}", e.getMessage());
        }
    }

    private interface Read<T> {
        T read() throws Exception;
    }

    private <T> Optional<T> attempt(String what, Read<T> read) {
        try {
            T v = read.read();
            problems.remove(what);
            return Optional.of(v);
        } catch (Exception e) {
            problems.put(what, dev.tidemark.jdbc.UrlMask.mask(String.valueOf(e.getMessage())));
            return Optional.empty();
        }
    }

    public OptionalLong walRetained() {
        return walRetained;
    }

    public Optional<Boolean> kafkaReachable() {
        return kafkaReachable;
    }

    public String kafkaProblem() {
        return kafkaProblem;
    }

    public List<WatermarkRuns.Run> watermarkRuns() {
        return runs;
    }

    public Optional<LastReconcile.Result> lastReconcile() {
        return reconcile;
    }

    /** The scheduled reconcile's history as last read from the target; empty before the first read or when not read. */
    public Optional<ReconcileHistory.Summary> scheduledReconcile() {
        return proofHistory;
    }

    /** Probes that failed last time, by name, with their reason. */
    public Map<String, String> problems() {
        return Map.copyOf(problems);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        kafka.close();
    }
}
