package dev.tidemark.sink.jdbc;

import java.util.Objects;

/**
 * How the sink writes into its target.
 *
 * @param pipeline       the name under which offsets are stored in {@code tidemark_offsets} (also the Kafka group id)
 * @param positionColumn the metadata column recording each row's source position (monotonic apply)
 * @param applyTruncate  whether {@code t} events empty the target table; when false they stop the sink with an error
 */
public record SinkOptions(String pipeline, String positionColumn, boolean applyTruncate) {
    public static final String DEFAULT_POSITION_COLUMN = "__tidemark_position";
    public static final String OFFSETS_TABLE = "tidemark_offsets";

    public SinkOptions {
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(positionColumn, "positionColumn");
        if (pipeline.isBlank()) {
            throw new IllegalArgumentException("pipeline name must not be blank");
        }
    }

    public static SinkOptions defaults(String pipeline) {
        return new SinkOptions(pipeline, DEFAULT_POSITION_COLUMN, false);
    }
}
