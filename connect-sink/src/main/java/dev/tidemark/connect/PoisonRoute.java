package dev.tidemark.connect;

import java.util.Locale;

/**
 * Where a record the task cannot apply goes: to Connect's dead-letter queue through the errant-record reporter, only
 * when the user configured it ({@code errors.tolerance=all} and {@code errors.deadletterqueue.topic.name}); otherwise
 * the task stops naming topic, partition, offset and key, and the offsets are not advanced past it. Pure.
 */
public enum PoisonRoute {
    /** Report it to Connect's dead-letter queue and go on after the report is acknowledged. */
    DEAD_LETTER,
    /** Stop the task, naming the record. */
    STOP;

    /** The route the user's {@code errors.*} settings ask for (null: not set). */
    static PoisonRoute configured(String errorsTolerance, String deadLetterTopic) {
        boolean all = errorsTolerance != null && "all".equals(errorsTolerance.trim().toLowerCase(Locale.ROOT));
        boolean topic = deadLetterTopic != null && !deadLetterTopic.isBlank();
        return all && topic ? DEAD_LETTER : STOP;
    }

    /** The route taken: dead letters need the worker to hand over a reporter (Connect 2.6+ does). */
    PoisonRoute given(boolean reporterAvailable) {
        return this == DEAD_LETTER && reporterAvailable ? DEAD_LETTER : STOP;
    }
}
