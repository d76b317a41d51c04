package dev.tidemark.sink.jdbc;

/**
 * The way on after a target table the sink wrote was dropped while the sink ran ({@link TargetTables#dropped}): what
 * rebuilds it, as the end of the stop line. The pipeline that runs the sink gives its own (the table's one-table
 * snapshot, then the start; {@code DroppedTableWayOn}); {@link #RESTORE}, for a sink that knows no pipeline (the Kafka
 * Connect plugin), names no command, since none it could name is known to recover. Pure.
 */
@FunctionalInterface
public interface DroppedTableAdvice {
    /** The default: restore the table, or rebuild it with a snapshot of the source table that fills it. */
    DroppedTableAdvice RESTORE = table -> "restore it as it was, or rebuild it from the source with a snapshot of the source table "
            + "that fills it, then start the sink again";

    /** What rebuilds target table {@code table}, e.g. "request its snapshot (`…`), then start …". */
    String wayOn(String table);
}
