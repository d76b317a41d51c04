package dev.tidemark.cli.proof;

import dev.tidemark.connector.config.ReconcileSchedule;
import dev.tidemark.jdbc.Durations;
import dev.tidemark.reconcile.ReconcileResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The scheduled reconcile's decisions, pure: whether a slot starts a run or is skipped (a run still going, never
 * queued; another process of the pipeline ran one within half a period), whether a run may start its next table within its budget, how long its lease on the target lasts, and what
 * to do with a table's differences under {@code reconcile.repair}.
 */
public final class ReconcileSlots {
    /** How much longer than its budget a lease lasts, so a slow last table does not let another process start. */
    static final Duration LEASE_MARGIN = Duration.ofMinutes(1);

    private ReconcileSlots() {
    }

    /** What happens at one slot. */
    public sealed interface Decision permits Start, Skip {
    }

    /** A run starts. */
    public record Start(Instant slot) implements Decision {
    }

    /** No run: {@code line} says why, for the log. */
    public record Skip(Instant slot, String line) implements Decision {
    }

    /** At {@code slot}: start a run, unless one (started at {@code runningSince}) is still going. */
    public static Decision at(Instant slot, Optional<Instant> runningSince, String pipeline) {
        if (runningSince.isPresent()) {
            return new Skip(slot, "scheduled reconcile of " + pipeline + ": slot " + slot + " skipped, the run started at "
                    + runningSince.get() + " is still going (" + Durations.format(Duration.between(runningSince.get(), slot))
                    + "); make reconcile.every longer or reconcile.tables shorter if this repeats");
        }
        return new Start(slot);
    }

    /**
     * Whether a run of the pipeline started less than half a period before {@code now} ({@code newest}, read from the
     * target's history): another process of the pipeline (a second sink member) ran it, and this slot is not needed.
     */
    public static boolean ranRecently(Optional<Instant> newest, Instant now, Duration every) {
        return newest.isPresent() && Duration.between(newest.get(), now).compareTo(every.dividedBy(2)) < 0;
    }

    /** Whether a run started at {@code runStart} may start another table at {@code now}. */
    public static boolean withinBudget(Instant runStart, Duration budget, Instant now) {
        return Duration.between(runStart, now).compareTo(budget) < 0;
    }

    /** Until when a run started at {@code now} holds the target: its budget and a margin. */
    public static Instant leaseUntil(Instant now, Duration budget) {
        return now.plus(budget).plus(LEASE_MARGIN);
    }

    /** What a run does with one table's result. */
    public enum Action {
        /** Equal: nothing to do. */
        NONE,
        /** Different, repair off: record the counts. */
        RECORD,
        /** Different, repair report: record the counts and log the repair plan. */
        REPORT,
        /** Different, repair auto: repair through the sink writer and compare again. */
        REPAIR
    }

    /**
     * The action for {@code result}: its differences are those still there after the settle re-check, so a difference
     * CDC healed within {@code settle} never reaches a repair.
     */
    public static Action action(ReconcileResult result, ReconcileSchedule.Repair mode) {
        if (result.equal()) {
            return Action.NONE;
        }
        return switch (mode) {
            case OFF -> Action.RECORD;
            case REPORT -> Action.REPORT;
            case AUTO -> Action.REPAIR;
        };
    }
}
