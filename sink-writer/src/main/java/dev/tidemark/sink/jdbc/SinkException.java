package dev.tidemark.sink.jdbc;

/** A batch could not be applied; the target transaction was rolled back and no offset advanced. */
public final class SinkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SinkException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether the cause is a transient database failure (see {@link SqlFailures}) worth retrying. */
    public boolean isTransient() {
        return getCause() != null && SqlFailures.isTransient(getCause());
    }
}
