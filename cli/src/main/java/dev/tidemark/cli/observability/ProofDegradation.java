package dev.tidemark.cli.observability;

import dev.tidemark.jdbc.Durations;
import dev.tidemark.reconcile.ReconcileHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether the scheduled reconcile's newest results make {@code /health} degraded (still ready): keys left different by
 * a table's newest run (its {@code tidemark_reconcile_drift_keys} above 0), or no run that compared every table
 * within {@value #STALE_PERIODS} × {@code every} plus the probes' read period (the history is read that often, so it
 * is that much older than the target's), measured from the last such run, else from the command's start.
 * Pure: no I/O, no clock.
 */
public final class ProofDegradation {
    /** How many periods without a complete run make the proof stale. */
    static final int STALE_PERIODS = 2;

    private ProofDegradation() {
    }

    /**
     * Inputs of the decision.
     *
     * @param every      the schedule's period; {@link Duration#ZERO} when this process runs no scheduled reconcile
     * @param configFile the pipeline file, named in the repair command of the reason
     * @param started    when this process started
     * @param history    the target's reconcile history as the probes last read it; empty before the first read
     * @param readPeriod how often the probes read the history
     */
    public record Inputs(Duration every, String configFile, Instant started, Optional<ReconcileHistory.Summary> history,
                         Duration readPeriod) {
    }

    /** The reason to be degraded at {@code now}, or empty: drift first (each table named), then a stale proof. */
    public static Optional<String> decide(Inputs in, Instant now) {
        if (in.every().isZero()) {
            return Optional.empty();
        }
        Map<String, ReconcileHistory.Row> latest = in.history().map(ReconcileHistory.Summary::latest).orElse(Map.of());
        List<ReconcileHistory.Row> drifted = latest.values().stream().filter(r -> r.remaining() > 0).toList();
        if (!drifted.isEmpty()) {
            return Optional.of(drift(drifted, in.configFile()));
        }
        Duration stale = in.every().multipliedBy(STALE_PERIODS).plus(in.readPeriod());
        Optional<Instant> last = in.history().flatMap(ReconcileHistory.Summary::lastSuccess);
        Instant since = last.orElse(in.started());
        if (Duration.between(since, now).compareTo(stale) <= 0) {
            return Optional.empty();
        }
        String limit = Durations.format(stale) + " (" + STALE_PERIODS + " × every + the " + Durations.format(in.readPeriod()) + " read period)";
        return Optional.of(last.map(t -> "scheduled reconcile stale: the last run that compared every table ended at " + t + ", more than "
                + limit + " ago").orElse("scheduled reconcile stale: no run compared every table since the start at " + in.started()
                + ", more than " + limit + " ago") + "; the log names why the runs failed or were skipped");
    }

    private static String drift(List<ReconcileHistory.Row> drifted, String configFile) {
        StringBuilder b = new StringBuilder("scheduled reconcile found drift: ");
        for (int i = 0; i < drifted.size(); i++) {
            ReconcileHistory.Row r = drifted.get(i);
            b.append(i == 0 ? "" : ", ").append(r.table()).append(' ').append(r.remaining()).append(" key(s) still different after the run of ")
                    .append(r.runStartedAt());
        }
        String table = drifted.size() == 1 ? " --table " + drifted.get(0).table() : "";
        return b.append("; repair: tidemark reconcile --config ").append(configFile).append(table).append(" --repair --apply").toString();
    }
}
