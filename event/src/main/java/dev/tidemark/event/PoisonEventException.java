package dev.tidemark.event;

/**
 * An event that cannot be decoded or applied. The message always names the topic, partition, offset and key so an
 * operator can find the record; offsets are not advanced past it unless a dead-letter topic takes it.
 */
public final class PoisonEventException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final EventOrigin origin;

    public PoisonEventException(EventOrigin origin, String reason, Throwable cause) {
        super(origin.describe() + ": " + reason, cause);
        this.origin = origin;
    }

    public EventOrigin origin() {
        return origin;
    }
}
