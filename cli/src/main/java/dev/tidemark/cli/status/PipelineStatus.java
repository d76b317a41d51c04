package dev.tidemark.cli.status;

import java.util.List;

/**
 * Where a pipeline stands, read from the three places that hold its state: the source's replication slot, the
 * Kafka topics, and the target's {@code tidemark_offsets}. Nothing here is cached by the process; every figure is
 * read at {@link #readAt()}. Reading it changes nothing (no topic, table or file is created).
 *
 * @param slot       the replication slot, or null when the source cannot be reached
 * @param offsets    capture's offsets file: where it resumes ("at 0/1A2B3C8"), "missing", or "damaged: why"
 * @param partitions one entry per topic partition: end offset in Kafka, next offset stored in the target, and lag
 * @param totalLag   events not yet applied over every partition, or null when it is unknown (Kafka or the target
 *                   could not be read, or a topic does not exist)
 * @param problems   what could not be read, one line each
 * @param acceptedGaps the capture gaps the user accepted ({@code --accept-gap}), oldest first, one line each: the
 *                   changes between the two positions were not captured (not a problem: the user chose it)
 * @param noLongerCaptured tables once captured and since removed from {@code source.tables} ({@code schema.table};
 *                   their target rows are kept), as capture remembered them at its last start
 */
public record PipelineStatus(String pipeline, String readAt, Slot slot, String offsets, List<Partition> partitions, Long totalLag,
                             List<String> problems, List<String> acceptedGaps, List<String> noLongerCaptured) {
    public PipelineStatus {
        partitions = List.copyOf(partitions);
        problems = List.copyOf(problems);
        acceptedGaps = List.copyOf(acceptedGaps);
        noLongerCaptured = List.copyOf(noLongerCaptured);
    }

    /** A status without accepted gaps or tables removed from capture. */
    public PipelineStatus(String pipeline, String readAt, Slot slot, String offsets, List<Partition> partitions, Long totalLag,
                          List<String> problems) {
        this(pipeline, readAt, slot, offsets, partitions, totalLag, problems, List.of(), List.of());
    }

    /** The same status with the commands its problems suggest naming {@code configFile} instead of a placeholder. */
    public PipelineStatus naming(String configFile) {
        return new PipelineStatus(pipeline, readAt, slot, offsets, partitions, totalLag,
                problems.stream().map(p -> p.replace(PIPELINE_FILE, configFile)).toList(), acceptedGaps, noLongerCaptured);
    }

    /** The placeholder for the pipeline file in the commands a problem suggests (the sink's messages use it too). */
    public static final String PIPELINE_FILE = "<pipeline file>";

    /** The logical replication slot capture reads from. */
    public record Slot(String name, boolean exists, boolean active, String confirmedFlushLsn, String currentLsn, long retainedWalBytes) {
    }

    /**
     * One topic partition: {@code lag = endOffset − storedOffset} events not yet applied to the target; the stored
     * offset (and so the lag) is null when the target could not be read.
     */
    public record Partition(String topic, int partition, long endOffset, Long storedOffset, Long lag) {
    }
}
