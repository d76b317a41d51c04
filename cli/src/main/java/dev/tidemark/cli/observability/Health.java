package dev.tidemark.cli.observability;

import java.util.Optional;

/**
 * What {@code /health} answers: {@code ready} (HTTP 200, status UP) or not (HTTP 503, status DOWN, with the reason);
 * {@code live} while the command's loop runs; {@code degraded} (still ready, HTTP 200, status DEGRADED, with the reason)
 * when the scheduled reconcile's proof says the target differs or is stale ({@link ProofDegradation}). {@link #decide}
 * is the pure decision.
 */
public record Health(boolean live, boolean ready, boolean degraded, String reason) {

    /** One half of the pipeline as the endpoint sees it. */
    public sealed interface Half {
        /** Not run by this command ({@code capture} has no sink, {@code sink} no capture). */
        record Absent() implements Half {
        }

        /** Started, not yet working (capture starting or in its initial snapshot; the sink without partitions yet). */
        record Starting(String what) implements Half {
        }

        /** Working: capture streams from the slot, the sink owns partitions. */
        record Running() implements Half {
        }

        /** Stopped on a fault: its one-line message. */
        record Failed(String message) implements Half {
        }

        /** Stopped without a fault (a stop was requested). */
        record Stopped() implements Half {
        }
    }

    /**
     * Inputs of the decision.
     *
     * @param loopRunning    the command's loop runs (not stopping, not draining)
     * @param kafkaReachable empty until the first probe answered
     * @param kafkaProblem   the probe's reason when Kafka did not answer
     * @param degraded       {@link ProofDegradation}'s reason, if any
     */
    public record Inputs(boolean loopRunning, Half capture, Half sink, Optional<Boolean> kafkaReachable, String kafkaProblem,
                         Optional<String> degraded) {
        /** Without a degradation. */
        public Inputs(boolean loopRunning, Half capture, Half sink, Optional<Boolean> kafkaReachable, String kafkaProblem) {
            this(loopRunning, capture, sink, kafkaReachable, kafkaProblem, Optional.empty());
        }
    }

    /** An answer without a degradation. */
    public Health(boolean live, boolean ready, String reason) {
        this(live, ready, false, reason);
    }

    /** DOWN when not ready, else DEGRADED when degraded, else UP. */
    public String status() {
        return !ready ? "DOWN" : degraded ? "DEGRADED" : "UP";
    }

    /**
     * The first reason not to be ready, in the order a user fixes them: faults, then Kafka, then start-up; when ready,
     * the degradation's reason, else {@code streaming}.
     */
    public static Health decide(Inputs in) {
        String reason = failed("sink", in.sink())
                .or(() -> failed("capture", in.capture()))
                .or(() -> in.kafkaReachable().orElse(true) ? Optional.empty() : Optional.of("Kafka unreachable: " + in.kafkaProblem()))
                .or(() -> in.loopRunning() ? Optional.empty() : Optional.of("stopping: the pipeline is draining"))
                .or(() -> starting("capture", in.capture()))
                .or(() -> starting("sink", in.sink()))
                .orElse("");
        boolean degraded = in.degraded().isPresent();
        String why = !reason.isEmpty() ? reason : in.degraded().orElse("streaming");
        return new Health(in.loopRunning(), reason.isEmpty(), degraded, why);
    }

    private static Optional<String> failed(String half, Half h) {
        if (h instanceof Half.Failed f) {
            return Optional.of(half + " stopped: " + f.message());
        }
        return h instanceof Half.Stopped ? Optional.of(half + " stopped") : Optional.empty();
    }

    private static Optional<String> starting(String half, Half h) {
        return h instanceof Half.Starting s ? Optional.of(half + " not streaming yet: " + s.what()) : Optional.empty();
    }
}
