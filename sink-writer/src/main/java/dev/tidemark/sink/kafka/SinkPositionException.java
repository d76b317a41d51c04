package dev.tidemark.sink.kafka;

/**
 * The sink stops because it cannot position a partition without skipping records the target has not applied (they
 * were deleted from Kafka), or because another member took over its identity. The message is one line naming topic,
 * partition and offsets and saying how to recover; nothing was skipped and no offset moved.
 */
public final class SinkPositionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SinkPositionException(String message) {
        super(message);
    }

    public SinkPositionException(String message, Throwable cause) {
        super(message, cause);
    }
}
