package dev.tidemark.connector.pipeline;

import dev.tidemark.connector.debezium.CaptureMetrics;
import dev.tidemark.sink.kafka.SinkMetrics;

/**
 * The metrics of one pipeline: what capture and the sink report ({@link CaptureMetrics}, {@link SinkMetrics}).
 * {@link #NONE} reports nothing (no {@code observability} in the pipeline file).
 */
public interface PipelineMetrics extends CaptureMetrics, SinkMetrics {
    /** Reports nothing. */
    PipelineMetrics NONE = new PipelineMetrics() {
    };
}
