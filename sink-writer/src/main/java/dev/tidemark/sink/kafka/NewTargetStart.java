package dev.tidemark.sink.kafka;

import org.apache.kafka.common.TopicPartition;

/**
 * Where a partition starts when the target has no stored offset for it (a new or emptied target, or a topic new to
 * the pipeline): pure, from what capture recorded in the history topic ({@link TopicHistory}) and the partition's log
 * start and end offsets.
 *
 * <ul>
 *   <li>A complete history recorded at offset X, with X between the log start and end: start at X.</li>
 *   <li>A gap recorded after the latest complete history ({@code --accept-gap}), a complete history part of which is
 *       gone (X below the log start: retention or compaction) or past the end, or a history topic without a record for
 *       the partition: refuse. Replaying would bring back rows removed at the source.</li>
 *   <li>No history topic at all (topics written by Debezium on Kafka Connect): the beginning is taken as complete
 *       (offset 0; the caller's rule for a log start above 0 still applies).</li>
 * </ul>
 */
public final class NewTargetStart {
    /** What {@link StartPositions} appends once to a refusal from here: the way on. */
    public static final String WAY_ON = "build this target from a new snapshot: `tidemark run --config <pipeline file> --resnapshot`";

    private NewTargetStart() {
    }

    /** The outcome for one partition. */
    public sealed interface Outcome {
    }

    /** Start at {@code offset}; {@code why} is one INFO line. */
    public record From(long offset, String why) implements Outcome {
    }

    /**
     * Do not start: {@code reason} names the topic-partition and why (the way on is {@link #WAY_ON}).
     *
     * @param retention records of the complete history were removed by retention or compaction (the partition may
     *                  then start at its log start offset where the user accepts that, {@code --accept-retention-gap})
     */
    public record Refuse(String reason, boolean retention) implements Outcome {
    }

    public static Outcome decide(TopicPartition tp, TopicHistory history, long logStart, long logEnd) {
        String where = "topic " + tp.topic() + " partition " + tp.partition() + ": the target has no stored offset";
        if (history instanceof TopicHistory.NotKept) {
            return new From(0, where + " and the topics have no Tidemark history topic (not written by Tidemark's capture):"
                    + " taking their beginning as a complete history, from offset 0");
        }
        TopicHistory.Kept kept = (TopicHistory.Kept) history;
        HistoryRecord r = kept.of(tp).orElse(null);
        if (r == null) {
            return new Refuse(where + " and capture's history topic " + kept.topic() + " records no complete snapshot of it,"
                    + " so its beginning may not be a complete history", false);
        }
        if (r instanceof HistoryRecord.Gap g) {
            return new Refuse(where + " and its history is not complete: capture accepted a gap at offset " + g.offset()
                    + " (--accept-gap, " + g.at() + "), so replaying it would bring back rows removed at the source", false);
        }
        HistoryRecord.Complete c = (HistoryRecord.Complete) r;
        if (c.offset() < logStart) {
            return new Refuse(where + " and its complete history, from offset " + c.offset() + " (" + c.cause() + ", " + c.at()
                    + "), lost records " + c.offset() + ".." + (logStart - 1) + " to retention or compaction", true);
        }
        if (c.offset() > logEnd) {
            return new Refuse(where + " and its complete history starts at offset " + c.offset() + " (" + c.cause() + ", "
                    + c.at() + "), past the partition's end offset " + logEnd + " (was the topic re-created?)", false);
        }
        return new From(c.offset(), where + ": starting at offset " + c.offset() + ", where its complete history starts ("
                + c.cause() + ", " + c.at() + ")");
    }
}
