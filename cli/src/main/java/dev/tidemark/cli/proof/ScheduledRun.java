package dev.tidemark.cli.proof;

import dev.tidemark.cli.observability.LastReconcile;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.ReconcileSchedule;
import dev.tidemark.connector.config.TargetAccess;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.Durations;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.reconcile.ReconcileHistory;
import dev.tidemark.reconcile.ReconcileLease;
import dev.tidemark.reconcile.ReconcileRequest;
import dev.tidemark.reconcile.ReconcileResult;
import dev.tidemark.reconcile.Reconciler;
import dev.tidemark.reconcile.Repair;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scheduled reconcile run of a pipeline: takes the target's lease ({@link ReconcileLease}; another process holding
 * it, or a run of the pipeline started by another process within half a period, makes this run a logged no-op),
 * compares each table of {@code reconcile.tables} in turn while the budget lasts, handles the differences as {@code reconcile.repair} says (repairs go through {@link Repair#apply}, the path and guards
 * of {@code reconcile --repair --apply}), and records one {@link ReconcileHistory} row per table plus the status page's
 * {@link LastReconcile}. A failing table is recorded and the run goes on; nothing here stops the pipeline.
 */
final class ScheduledRun {
    private static final Logger log = LoggerFactory.getLogger(ScheduledRun.class);
    private static final int SHOWN_KEYS = 10;

    private final PipelineConfig config;
    private final ReconcileSchedule schedule;
    private final String holder;
    private final Clock clock;
    private final Dialect dialect;

    ScheduledRun(PipelineConfig config, String holder, Clock clock) {
        this.config = config;
        this.schedule = config.reconcile();
        this.holder = holder;
        this.clock = clock;
        this.dialect = Databases.targetForUrl(config.target().jdbcUrl());
    }

    /** Runs once; returns the rows recorded (empty when another process held the target). */
    List<ReconcileHistory.Row> run() throws SQLException {
        Instant started = clock.instant();
        try (Connection c = TargetAccess.open(config)) {
            dialect.configure(c);
            c.setAutoCommit(true);
            Optional<String> taken = ReconcileLease.take(c, dialect, holder, started, ReconcileSlots.leaseUntil(started, schedule.budget()));
            if (taken.isPresent()) {
                log.warn("scheduled reconcile of {}: run at {} skipped, {} reconciles target {}", config.name(), started, taken.get(),
                        UrlMask.mask(config.target().jdbcUrl()));
                return List.of();
            }
            try {
                ReconcileHistory.ensure(c, dialect);
                Optional<Instant> newest = ReconcileHistory.recent(c, dialect, config.name()).stream().findFirst()
                        .map(ReconcileHistory.Row::runStartedAt);
                if (ReconcileSlots.ranRecently(newest, started, schedule.every())) {
                    log.info("scheduled reconcile of {}: run at {} skipped, another process of the pipeline ran one at {}", config.name(),
                            started, newest.get());
                    return List.of();
                }
                List<ReconcileHistory.Row> rows = tables(started);
                for (ReconcileHistory.Row r : rows) {
                    ReconcileHistory.record(c, dialect, r);
                }
                keepForStatusPage(rows);
                return rows;
            } finally {
                ReconcileLease.release(c, dialect, holder);
            }
        }
    }

    private List<ReconcileHistory.Row> tables(Instant started) {
        List<ReconcileHistory.Row> rows = new ArrayList<>();
        for (TableId t : schedule.tables()) {
            Instant now = clock.instant();
            if (!ReconcileSlots.withinBudget(started, schedule.budget(), now)) {
                log.warn("scheduled reconcile of {}: table {} not started, the run's budget {} is spent; it is compared next run",
                        config.name(), t, Durations.format(schedule.budget()));
                rows.add(row(t, started, now, null, 0, -1, ReconcileHistory.Outcome.NOT_STARTED, "budget spent"));
                continue;
            }
            rows.add(table(t, started));
        }
        return rows;
    }

    private ReconcileHistory.Row table(TableId t, Instant runStart) {
        Instant t0 = clock.instant();
        ReconcileRequest request = PipelineRequests.of(config, t, config.targetTableFor(t)).withSettle(schedule.settle())
                .withListener(new ReconcileRequest.Listener() {
                    @Override
                    public void scanned(int differences) {
                        if (differences > 0) {
                            log.info("scheduled reconcile of {}: table {}: the scan found {} keys different; re-checking them in {}",
                                    config.name(), t, differences, Durations.format(schedule.settle()));
                        }
                    }
                });
        try {
            ReconcileResult found = Reconciler.reconcile(request);
            long differences = found.missingCount() + found.surplusCount() + found.changedCount();
            return switch (ReconcileSlots.action(found, schedule.repair())) {
                case NONE -> row(t, runStart, t0, found, 0, 0, ReconcileHistory.Outcome.EQUAL, "");
                case RECORD -> row(t, runStart, t0, found, 0, differences, ReconcileHistory.Outcome.DIFFERENT, "");
                case REPORT -> {
                    log.warn("scheduled reconcile of {}: {}; repair: report, nothing changed", config.name(),
                            Repair.plan(found).describe(SHOWN_KEYS));
                    yield row(t, runStart, t0, found, 0, differences, ReconcileHistory.Outcome.DIFFERENT, "");
                }
                case REPAIR -> repair(request, found, runStart, t0);
            };
        } catch (SQLException | RuntimeException e) {
            String why = UrlMask.mask(String.valueOf(e.getMessage()));
            log.warn("scheduled reconcile of {}: table {} failed: {}", config.name(), t, why);
            return row(t, runStart, t0, null, 0, -1, ReconcileHistory.Outcome.FAILED, why);
        }
    }

    private ReconcileHistory.Row repair(ReconcileRequest request, ReconcileResult found, Instant runStart, Instant t0) throws SQLException {
        Repair.Plan plan = Repair.plan(found);
        long differences = found.missingCount() + found.surplusCount() + found.changedCount();
        Repair.Outcome done;
        try {
            done = Repair.apply(request, plan, schedule.maxDeleteShare(), false);
        } catch (Repair.RefusedException e) {
            String why = e.getMessage().replace("repeat with --force", "repair it with `tidemark reconcile --config FILE --table "
                    + found.table() + " --repair --apply --force`");
            log.warn("scheduled reconcile of {}: {}", config.name(), why);
            return row(request.sourceTable(), runStart, t0, found, 0, differences, ReconcileHistory.Outcome.REFUSED, why);
        }
        ReconcileResult after = Reconciler.reconcile(request);
        long remaining = after.missingCount() + after.surplusCount() + after.changedCount();
        log.info("scheduled reconcile of {}: repaired {}: {} upserted, {} deleted ({} keys left to CDC); {} still different",
                config.name(), found.targetTable(), done.upserted(), done.deleted(), done.vanished() + done.reappeared(), remaining);
        return row(request.sourceTable(), runStart, t0, found, done.upserted() + done.deleted(), remaining,
                remaining == 0 ? ReconcileHistory.Outcome.REPAIRED : ReconcileHistory.Outcome.DIFFERENT, "");
    }

    private ReconcileHistory.Row row(TableId t, Instant runStart, Instant t0, ReconcileResult r, long repaired, long remaining,
                                     ReconcileHistory.Outcome outcome, String detail) {
        Instant end = clock.instant();
        return new ReconcileHistory.Row(config.name(), t.toString(), runStart, end, r == null ? 0 : r.sourceRows(),
                r == null ? 0 : r.targetRows(), r == null ? 0 : r.missingCount(), r == null ? 0 : r.surplusCount(),
                r == null ? 0 : r.changedCount(), repaired, remaining, java.time.Duration.between(t0, end).toMillis(), outcome, detail);
    }

    /** The status page's last reconcile: what is still different per compared table. */
    private void keepForStatusPage(List<ReconcileHistory.Row> rows) {
        List<LastReconcile.Table> tables = rows.stream().filter(ReconcileHistory.Row::compared)
                .map(r -> r.remaining() == 0 ? new LastReconcile.Table(r.table(), 0, 0, 0)
                        : new LastReconcile.Table(r.table(), r.missing(), r.surplus(), r.changed())).toList();
        try {
            LastReconcile.write(config, tables);
        } catch (IOException e) {
            log.warn("scheduled reconcile of {}: cannot write {} for the status page: {}", config.name(), LastReconcile.file(config),
                    e.getMessage());
        }
    }
}
