package dev.tidemark.jdbc;

/**
 * A batch could not be applied; the target transaction was rolled back and no offset advanced. Carries the
 * {@link Failure} that decides what happens next: retried ({@link Failure.Transient}), the sink stops
 * ({@link Failure.Fault}), or the culprit row is isolated as a poison event ({@link Failure.RowRejected}).
 */
public final class SinkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Failure failure;

    /** A failure classified from its cause by {@link SqlFailures#classify}; without a cause, a fault. */
    public SinkException(String message, Throwable cause) {
        this(message, cause, cause == null ? new Failure.Fault(Failure.Cause.OTHER) : SqlFailures.classify(cause));
    }

    public SinkException(String message, Throwable cause, Failure failure) {
        super(message, cause);
        this.failure = java.util.Objects.requireNonNull(failure, "failure");
    }

    public Failure failure() {
        return failure;
    }

    /** Whether the failure is transient (see {@link SqlFailures}) and worth retrying. */
    public boolean isTransient() {
        return failure instanceof Failure.Transient;
    }

    /** Whether a row broke a rule of the target by itself: only such a failure makes an event poison. */
    public boolean isRowRejected() {
        return failure instanceof Failure.RowRejected;
    }
}
