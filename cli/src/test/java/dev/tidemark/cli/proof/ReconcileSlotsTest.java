package dev.tidemark.cli.proof;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.config.ReconcileSchedule;
import dev.tidemark.reconcile.ReconcileResult;
import dev.tidemark.reconcile.RowKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReconcileSlotsTest {
    static final Instant T = Instant.parse("2026-05-01T10:00:00Z");

    static ReconcileResult result(long changed) {
        List<RowKey> keys = changed == 0 ? List.of() : List.of(RowKey.of("1"));
        return new ReconcileResult("public.items", "items", List.of("id"), 3, 3, List.of(), List.of(), keys, 0, 0, changed,
                "time:" + T, T, T, (int) changed, 0, "merged", new ReconcileResult.Stats(1, 0, 1, 6, Duration.ZERO), null, List.of(), List.of());
    }

    @Test
    void aSlotStartsARunUnlessOneIsStillGoing() {
        assertThat(ReconcileSlots.at(T, Optional.empty(), "shop")).isEqualTo(new ReconcileSlots.Start(T));
        ReconcileSlots.Decision d = ReconcileSlots.at(T.plusSeconds(3600), Optional.of(T), "shop");
        assertThat(d).isInstanceOf(ReconcileSlots.Skip.class);
        assertThat(((ReconcileSlots.Skip) d).line()).isEqualTo("scheduled reconcile of shop: slot 2026-05-01T11:00:00Z skipped, the run "
                + "started at 2026-05-01T10:00:00Z is still going (1h); make reconcile.every longer or reconcile.tables shorter if this repeats");
    }

    @Test
    void aSlotIsNotNeededWhenAnotherProcessRanThePipelineWithinHalfAPeriod() {
        Duration hour = Duration.ofHours(1);
        assertThat(ReconcileSlots.ranRecently(Optional.empty(), T, hour)).isFalse();
        assertThat(ReconcileSlots.ranRecently(Optional.of(T.minusSeconds(1799)), T, hour)).isTrue();
        assertThat(ReconcileSlots.ranRecently(Optional.of(T.minusSeconds(1800)), T, hour)).isFalse();
        assertThat(ReconcileSlots.ranRecently(Optional.of(T.minus(hour)), T, hour)).as("this process's own previous slot").isFalse();
    }

    @Test
    void aRunStartsTablesOnlyWithinItsBudgetAndHoldsTheTargetALittleLonger() {
        Duration budget = Duration.ofMinutes(10);
        assertThat(ReconcileSlots.withinBudget(T, budget, T.plusSeconds(599))).isTrue();
        assertThat(ReconcileSlots.withinBudget(T, budget, T.plusSeconds(600))).isFalse();
        assertThat(ReconcileSlots.leaseUntil(T, budget)).isEqualTo(T.plus(budget).plus(ReconcileSlots.LEASE_MARGIN));
    }

    @Test
    void differencesLeftAfterTheSettleRecheckAreHandledAsTheRepairModeSays() {
        assertThat(ReconcileSlots.action(result(0), ReconcileSchedule.Repair.AUTO)).as("equal after the settle re-check: no repair")
                .isEqualTo(ReconcileSlots.Action.NONE);
        assertThat(ReconcileSlots.action(result(1), ReconcileSchedule.Repair.OFF)).isEqualTo(ReconcileSlots.Action.RECORD);
        assertThat(ReconcileSlots.action(result(1), ReconcileSchedule.Repair.REPORT)).isEqualTo(ReconcileSlots.Action.REPORT);
        assertThat(ReconcileSlots.action(result(1), ReconcileSchedule.Repair.AUTO)).isEqualTo(ReconcileSlots.Action.REPAIR);
    }
}
