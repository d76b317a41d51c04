package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;

/**
 * What capture reports for metrics, a role with a no-op default ({@link #NONE}) so capture stays testable without a
 * metrics library. Called from the capture thread after Kafka acknowledged the events; an implementation must be
 * thread-safe and must never block or throw.
 */
public interface CaptureMetrics {
    /** Reports nothing. */
    CaptureMetrics NONE = new CaptureMetrics() {
    };

    /** {@code events} change events of {@code table} were acknowledged by Kafka. */
    default void captured(TableId table, long events) {
    }
}
