package dev.tidemark.sink.kafka;

import dev.tidemark.event.PoisonEventException;

/**
 * Why a record cannot be applied, as the lines that stop the sink or dead-letter the record state it: for a
 * {@link PoisonEventException}, its reason without the record's origin (the caller names the origin itself); for any
 * other failure, its message. Public for the Kafka Connect plugin ({@code connect-sink}), which words poison records
 * the same way.
 */
public final class PoisonReason {
    private PoisonReason() {
    }

    /** The reason {@code failure} gives, never null. */
    public static String of(RuntimeException failure) {
        if (failure instanceof PoisonEventException pe) {
            return pe.reason();
        }
        return String.valueOf(failure.getMessage());
    }
}
