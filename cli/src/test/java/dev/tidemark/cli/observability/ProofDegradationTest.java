package dev.tidemark.cli.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.reconcile.ReconcileHistory;
import dev.tidemark.reconcile.ReconcileHistory.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** When the scheduled reconcile's results make /health degraded, from the history alone. */
class ProofDegradationTest {
    private static final Instant START = Instant.parse("2026-12-04T10:00:00Z");
    private static final Duration HOUR = Duration.ofHours(1);

    private static ReconcileHistory.Row row(String table, Instant run, long remaining, Outcome outcome) {
        return new ReconcileHistory.Row("shop", table, run, run.plusSeconds(30), 10, 10, 0, 0, remaining, 0, remaining, 30_000, outcome, "");
    }

    private static Optional<ReconcileHistory.Summary> history(Optional<Instant> lastSuccess, ReconcileHistory.Row... latest) {
        Map<String, ReconcileHistory.Row> rows = new LinkedHashMap<>();
        for (ReconcileHistory.Row r : latest) {
            rows.put(r.table(), r);
        }
        return Optional.of(new ReconcileHistory.Summary(rows, Map.of(), lastSuccess));
    }

    private static Optional<String> decide(Duration every, Optional<ReconcileHistory.Summary> h, Instant now) {
        return ProofDegradation.decide(new ProofDegradation.Inputs(every, "shop.yaml", START, h, Duration.ofSeconds(5)), now);
    }

    @Test
    void neverDegradedWithoutASchedule() {
        ReconcileHistory.Row drifted = row("public.orders", START, 3, Outcome.DIFFERENT);
        assertThat(decide(Duration.ZERO, history(Optional.empty(), drifted), START.plus(Duration.ofDays(3)))).isEmpty();
    }

    @Test
    void healthyWhileEveryTableIsEqualAndTheLastSuccessIsRecent() {
        Instant run = START.plus(HOUR);
        Optional<ReconcileHistory.Summary> h = history(Optional.of(run.plusSeconds(30)), row("public.orders", run, 0, Outcome.EQUAL),
                row("public.customers", run, 0, Outcome.REPAIRED));
        assertThat(decide(HOUR, h, run.plus(HOUR).plusSeconds(10))).isEmpty();
        assertThat(decide(HOUR, h, run.plusSeconds(35).plus(HOUR.multipliedBy(2)))).as("exactly 2 × every + the read period: not yet stale").isEmpty();
    }

    @Test
    void driftLeftByTheNewestRunNamesEachTableAndTheRepairCommand() {
        Instant run = START.plus(HOUR);
        Optional<ReconcileHistory.Summary> one = history(Optional.of(run.plusSeconds(30)), row("public.orders", run, 2, Outcome.DIFFERENT),
                row("public.customers", run, 0, Outcome.EQUAL));
        assertThat(decide(HOUR, one, run.plusSeconds(60))).hasValue("scheduled reconcile found drift: public.orders 2 key(s) still different "
                + "after the run of 2026-12-04T11:00:00Z; repair: tidemark reconcile --config shop.yaml --table public.orders --repair --apply");
        Optional<ReconcileHistory.Summary> two = history(Optional.of(run.plusSeconds(30)), row("public.orders", run, 2, Outcome.DIFFERENT),
                row("public.customers", run, 1, Outcome.REFUSED));
        assertThat(decide(HOUR, two, run.plusSeconds(60))).hasValueSatisfying(r -> assertThat(r)
                .contains("public.orders 2 key(s)", ", public.customers 1 key(s)")
                .endsWith("repair: tidemark reconcile --config shop.yaml --repair --apply"));
    }

    @Test
    void aFailedComparisonIsNotDriftButLetsTheProofGoStale() {
        Instant run = START.plus(HOUR);
        Optional<ReconcileHistory.Summary> h = history(Optional.of(START.plusSeconds(90)), row("public.orders", run, -1, Outcome.FAILED));
        assertThat(decide(HOUR, h, run.plusSeconds(60))).isEmpty();
        assertThat(decide(HOUR, h, START.plusSeconds(96).plus(HOUR.multipliedBy(2)))).hasValue("scheduled reconcile stale: the last run that "
                + "compared every table ended at 2026-12-04T10:01:30Z, more than 2h5s (2 × every + the 5s read period) ago; "
                + "the log names why the runs failed or were skipped");
    }

    @Test
    void withoutAnySuccessTheProofIsStaleTwoPeriodsAfterTheStart() {
        assertThat(decide(HOUR, Optional.empty(), START.plus(HOUR.multipliedBy(2)).plusSeconds(5))).isEmpty();
        assertThat(decide(HOUR, Optional.empty(), START.plus(HOUR.multipliedBy(2)).plusSeconds(6))).hasValue("scheduled reconcile stale: "
                + "no run compared every table since the start at 2026-12-04T10:00:00Z, more than 2h5s (2 × every + the 5s read period) ago; "
                + "the log names why the runs failed or were skipped");
        assertThat(decide(Duration.ofSeconds(3), history(Optional.empty()), START.plusSeconds(12))).as("every 3s, an empty history")
                .hasValueSatisfying(r -> assertThat(r).contains("more than 11s (2 × every + the 5s read period) ago"));
    }
}
