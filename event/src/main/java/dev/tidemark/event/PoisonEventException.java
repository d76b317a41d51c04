package dev.tidemark.event;

/**
 * An event that cannot be decoded or applied. The message always names the topic, partition, offset and key so an
 * operator can find the record, followed by the reason; {@link #reason()} is the reason alone, for lines that name the
 * origin themselves. Offsets are not advanced past it unless a dead-letter topic takes it.
 */
public final class PoisonEventException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final EventOrigin origin;
    private final String reason;

    public PoisonEventException(EventOrigin origin, String reason, Throwable cause) {
        super(origin.describe() + ": " + reason, cause);
        this.origin = origin;
        this.reason = String.valueOf(reason);
    }

    public EventOrigin origin() {
        return origin;
    }

    /** Why the record cannot be decoded or applied, without its origin; never null. */
    public String reason() {
        return reason;
    }
}
