package dev.tidemark.connector.debezium;

import java.time.Duration;
import java.util.Objects;

/**
 * The next step in stopping Debezium's async engine, from what the last close met and whether the engine has reported
 * its end (its completion callback). Pure; {@link EngineClose} carries the steps out.
 *
 * <p>Two states of the engine (Debezium 3.6 {@code AsyncEmbeddedEngine}) make a plain {@code close()} fail to stop it:
 * <ul>
 *   <li>while it starts its tasks it refuses the close ({@code Cannot stop engine while tasks are starting}), and a
 *       close racing its next state change fails its compare-and-set ({@code Cannot change engine state …}): the close
 *       is tried again every {@link Policy#retry()}, for {@link Policy#patience()} at most;</li>
 *   <li>a close it takes just as it begins to poll (state {@code POLLING_TASKS}, its polling task queued but not yet
 *       run) stops the tasks and shuts the task pool down, which drops the queued polling task: the engine's own thread
 *       then waits for it for ever in {@code runTasksPolling} and never reports its end. A taken close returns only once
 *       the tasks, the offset store and the connector have stopped, so nothing is left for that thread but to report:
 *       if it has not within {@link Policy#grace()}, it is interrupted (it stops waiting and reports), and awaited
 *       {@link Policy#reportWait()} more.</li>
 * </ul>
 * An engine already stopping by itself (a failure, or its end) is only awaited, never interrupted: its own thread is
 * committing offsets and stopping the tasks.
 */
final class EngineStopPlan {
    private EngineStopPlan() {
    }

    /** What the last {@code close()} met. */
    enum Met {
        /** the engine took the close: tasks, offset store and connector are stopped */
        TOOK_CLOSE,
        /** refused: the engine is starting its tasks */
        STARTING_TASKS,
        /** refused: the engine's state changed between the close's check and its compare-and-set */
        STATE_MOVED,
        /** refused: the engine is stopping by itself (or another close is under way) */
        ALREADY_STOPPING,
        /** refused: the engine has stopped */
        ALREADY_STOPPED,
        /** refused for a reason this plan does not know */
        OTHER_REFUSAL;

        /** What a refusal with {@code message} (Debezium's {@code IllegalStateException} text) means. */
        static Met refusal(String message) {
            String m = message == null ? "" : message;
            if (m.contains("while tasks are starting")) {
                return STARTING_TASKS;
            } else if (m.contains("Cannot change engine state")) {
                return STATE_MOVED;
            } else if (m.contains("already being shutting down")) {
                return ALREADY_STOPPING;
            } else if (m.contains("already shut down")) {
                return ALREADY_STOPPED;
            }
            return OTHER_REFUSAL;
        }
    }

    /** How long each wait lasts. */
    record Policy(Duration retry, Duration patience, Duration grace, Duration reportWait) {
        Policy {
            Objects.requireNonNull(retry);
            Objects.requireNonNull(patience);
            Objects.requireNonNull(grace);
            Objects.requireNonNull(reportWait);
        }
    }

    /**
     * What is known now.
     *
     * @param last         what the last close met
     * @param reported     whether the engine has reported its end
     * @param interrupted  whether its thread was interrupted already
     * @param sinceFirst   time since the first close
     * @param sinceStopped time since the close was taken or the engine was first seen stopping (zero before)
     */
    record Observed(Met last, boolean reported, boolean interrupted, Duration sinceFirst, Duration sinceStopped) {
        Observed {
            Objects.requireNonNull(last);
            Objects.requireNonNull(sinceFirst);
            Objects.requireNonNull(sinceStopped);
        }
    }

    /** The next step. */
    sealed interface Step {
    }

    /** The engine has reported its end: stopped. */
    record Done() implements Step {
    }

    /** Wait {@code atMost} (or until the engine reports its end), then close again. */
    record CloseAgain(Duration atMost) implements Step {
    }

    /** Wait {@code atMost} for the engine to report its end, then decide again. */
    record AwaitReport(Duration atMost) implements Step {
    }

    /** Interrupt the engine's own thread (everything else of it has stopped), then decide again. */
    record InterruptEngineThread() implements Step {
    }

    /** Stop trying: {@code why} says what the engine was doing. */
    record GiveUp(String why) implements Step {
    }

    static Step next(Observed o, Policy p) {
        if (o.reported()) {
            return new Done();
        }
        return switch (o.last()) {
            case STARTING_TASKS, STATE_MOVED -> o.sinceFirst().compareTo(p.patience()) < 0
                    ? new CloseAgain(p.retry())
                    : new GiveUp("Debezium's engine was still starting its tasks after " + p.patience().toSeconds() + " s");
            case OTHER_REFUSAL -> new GiveUp("Debezium's engine refused to stop");
            case ALREADY_STOPPING, ALREADY_STOPPED -> awaitOnly(o, p);
            case TOOK_CLOSE -> afterTakenClose(o, p);
        };
    }

    /** The engine stops by itself: awaited, never interrupted. */
    private static Step awaitOnly(Observed o, Policy p) {
        Duration left = p.grace().plus(p.reportWait()).minus(o.sinceStopped());
        return left.isNegative() || left.isZero()
                ? new GiveUp("Debezium's engine did not report its end within " + p.grace().plus(p.reportWait()).toSeconds() + " s of stopping")
                : new AwaitReport(left);
    }

    private static Step afterTakenClose(Observed o, Policy p) {
        if (!o.interrupted()) {
            Duration left = p.grace().minus(o.sinceStopped());
            return left.isNegative() || left.isZero() ? new InterruptEngineThread() : new AwaitReport(left);
        }
        return awaitOnly(o, p);
    }
}
