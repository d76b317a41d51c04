package dev.tidemark.cli.proof;

import dev.tidemark.cli.status.ExistingTarget;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.TargetAccess;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.reconcile.ReconcileHistory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The scheduled reconcile results a pipeline's target holds ({@link ReconcileHistory}), read-only: a SQLite file
 * that does not exist is not opened and a missing table means no runs yet; nothing is created.
 */
public final class ReconcileRuns {
    private ReconcileRuns() {
    }

    public static ReconcileHistory.Summary read(PipelineConfig config) throws SQLException {
        ReconcileHistory.Summary none = new ReconcileHistory.Summary(Map.of(), Map.of(), Optional.empty());
        if (ExistingTarget.absentFile(config).isPresent()) {
            return none;
        }
        Dialect d = Databases.targetForUrl(config.target().jdbcUrl());
        try (Connection c = TargetAccess.open(config)) {
            if (!TargetAccess.tableExists(c, d, ReconcileHistory.TABLE)) {
                return none;
            }
            List<ReconcileHistory.Row> rows = ReconcileHistory.recent(c, d, config.name());
            return ReconcileHistory.summarize(rows);
        }
    }

    /**
     * For {@code tidemark status}: per table the newest scheduled result, and the newest one that found differences
     * when that is an older run.
     */
    public static List<String> lines(ReconcileHistory.Summary s) {
        List<String> out = new java.util.ArrayList<>();
        s.latest().forEach((table, r) -> {
            out.add("reconcile " + table + " at " + r.finishedAt() + ": " + describe(r));
            ReconcileHistory.Row drift = s.lastDrift().get(table);
            if (drift != null && !drift.equals(r)) {
                out.add("  last differences found at " + drift.finishedAt() + ": " + describe(drift));
            }
        });
        s.lastSuccess().ifPresent(t -> out.add("last complete reconcile run ended " + t));
        return out;
    }

    private static String describe(ReconcileHistory.Row r) {
        return String.format(java.util.Locale.ROOT,
                "%s; source %,d rows, target %,d rows; missing %d, surplus %d, changed %d; repaired %d; still different %s; %d ms",
                r.detail().isEmpty() ? r.outcome().label() : r.outcome().label() + " (" + r.detail() + ")", r.sourceRows(), r.targetRows(),
                r.missing(), r.surplus(), r.changed(), r.repaired(), r.remaining() < 0 ? "unknown" : Long.toString(r.remaining()),
                r.durationMs());
    }
}
