package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.UsageException;
import java.util.Objects;

/**
 * How the sink writes into its target.
 *
 * @param pipeline       the name under which offsets are stored in {@code tidemark_offsets} (also the Kafka group id)
 * @param positionColumn the metadata column recording each row's source position (monotonic apply)
 * @param applyTruncate  whether {@code t} events empty the target table; when false they stop the sink with an error
 * @param deleteMode     {@link DeleteMode#HARD} removes rows; {@link DeleteMode#SOFT} keeps the key with
 *                       {@value #DELETED_COLUMN} = true and the delete's position, so a replay of older events can
 *                       never bring the row back
 * @param rebuildDroppedTables whether a table the sink wrote before (recorded in {@value #COLUMNS_TABLE}) that no
 *                       longer exists may be created again; only for a replay from the earliest offset
 *                       ({@code --replay-from earliest}), which writes it again from its first event. Otherwise such a
 *                       table stops the sink: re-creating it empty while the offsets stay ahead would lose its rows.
 * @param targetTables   the target table of each source table ({@link TargetTableNames#DEFAULT}: its name without schema)
 */
public record SinkOptions(String pipeline, String positionColumn, boolean applyTruncate, DeleteMode deleteMode,
                          boolean rebuildDroppedTables, TargetTableNames targetTables) {
    public static final String DEFAULT_POSITION_COLUMN = "__tidemark_position";
    public static final String DELETED_COLUMN = "__tidemark_deleted";
    public static final String OFFSETS_TABLE = "tidemark_offsets";
    public static final String COLUMNS_TABLE = "tidemark_columns";
    /** Where the sink keeps each target table's truncate and snapshot positions ({@code TablePositions}). */
    public static final String TABLE_POSITIONS_TABLE = "tidemark_table_positions";

    /** What a delete event does to the target row. */
    public enum DeleteMode { HARD, SOFT }

    public SinkOptions {
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(positionColumn, "positionColumn");
        Objects.requireNonNull(deleteMode, "deleteMode");
        Objects.requireNonNull(targetTables, "targetTables");
        if (pipeline.isBlank()) {
            throw new UsageException("pipeline name must not be blank");
        }
        if (positionColumn.isBlank() || positionColumn.equals(DELETED_COLUMN)) {
            throw new UsageException("invalid position column name '" + positionColumn + "'");
        }
    }

    public SinkOptions(String pipeline, String positionColumn, boolean applyTruncate, DeleteMode deleteMode,
                       boolean rebuildDroppedTables) {
        this(pipeline, positionColumn, applyTruncate, deleteMode, rebuildDroppedTables, TargetTableNames.DEFAULT);
    }

    public SinkOptions(String pipeline, String positionColumn, boolean applyTruncate, DeleteMode deleteMode) {
        this(pipeline, positionColumn, applyTruncate, deleteMode, false);
    }

    public SinkOptions(String pipeline, String positionColumn, boolean applyTruncate) {
        this(pipeline, positionColumn, applyTruncate, DeleteMode.HARD);
    }

    /** These options for a replay from the earliest offset: dropped tables are written again from their first event. */
    public SinkOptions rebuildingDroppedTables() {
        return new SinkOptions(pipeline, positionColumn, applyTruncate, deleteMode, true, targetTables);
    }

    /** These options writing each source table to the target table {@code names} gives it. */
    public SinkOptions withTargetTables(TargetTableNames names) {
        return new SinkOptions(pipeline, positionColumn, applyTruncate, deleteMode, rebuildDroppedTables, names);
    }

    public static SinkOptions defaults(String pipeline) {
        return new SinkOptions(pipeline, DEFAULT_POSITION_COLUMN, false, DeleteMode.HARD);
    }

    public boolean softDeletes() {
        return deleteMode == DeleteMode.SOFT;
    }
}
