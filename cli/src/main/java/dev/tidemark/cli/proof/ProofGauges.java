package dev.tidemark.cli.proof;

import dev.tidemark.reconcile.ReconcileHistory;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scheduled reconcile's gauges, fed from the target's {@link ReconcileHistory} by the observability probes:
 * {@code tidemark_reconcile_drift_keys{table}} (keys still different after the table's newest run; NaN when that run
 * failed), {@code tidemark_reconcile_found_keys{table}} (keys that run found different after its settle re-check, before
 * any repair) and {@code tidemark_reconcile_last_success_timestamp_seconds} (end of the newest run that compared every
 * table; NaN before the first). Thread-safe.
 */
public final class ProofGauges {
    private final MeterRegistry registry;
    private final Map<String, Double> drift = new ConcurrentHashMap<>();
    private final Map<String, Double> found = new ConcurrentHashMap<>();
    private volatile double lastSuccess = Double.NaN;

    public ProofGauges(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("tidemark.reconcile.last.success.timestamp.seconds", this, g -> g.lastSuccess)
                .description("end of the newest scheduled reconcile run that compared every table (Unix seconds)").register(registry);
    }

    /** Sets every gauge from {@code s}. */
    public void update(ReconcileHistory.Summary s) {
        s.latest().forEach((table, row) -> {
            set(drift, "tidemark.reconcile.drift.keys", "keys still different after the newest scheduled reconcile of the table",
                    table, row.remaining() < 0 ? Double.NaN : (double) row.remaining());
            set(found, "tidemark.reconcile.found.keys", "keys the newest scheduled reconcile of the table found different, before repair",
                    table, row.compared() ? (double) row.found() : Double.NaN);
        });
        s.lastSuccess().ifPresent(t -> lastSuccess = t.toEpochMilli() / 1000.0);
    }

    private void set(Map<String, Double> values, String name, String description, String table, double value) {
        values.computeIfAbsent(table, t -> {
            Gauge.builder(name, values, m -> m.getOrDefault(t, Double.NaN)).tag("table", t).description(description).register(registry);
            return Double.NaN;
        });
        values.put(table, value);
    }
}
