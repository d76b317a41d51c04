package dev.tidemark.sink.kafka;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * Where each newly assigned partition starts: a pure decision (no Kafka, no database), made by the consumer thread
 * from what it read beforehand (the target's stored offsets, the partitions' log start and end offsets, and for a
 * timestamp replay the first offset at or after the instant).
 *
 * <p>Rules, per partition:
 * <ol>
 *   <li>The resume point is the stored offset. For a partition the target never stored (not replaying),
 *       {@link NewTargetStart} decides from the topic's history: where its complete history starts, or a refusal; for
 *       topics without a history topic, offset 0.</li>
 *   <li>A resume point below the log start offset means records the target never applied were deleted (retention):
 *       the decision is a {@link Refuse}, naming topic, partition, stored and earliest offsets and the way on,
 *       unless the user accepted the gap explicitly ({@code --accept-retention-gap}): then the partition starts at
 *       the log start offset. A partition the target never stored whose log start is above 0 counts as a gap too:
 *       its first records were deleted before this target read them. A stored offset past the end offset (a topic
 *       deleted and re-created) is refused the same way; accepted, the partition starts at its log start offset and
 *       the stored offset moves back there (the records of the re-created topic are all applied).</li>
 *   <li>A replay ({@code --replay-from}, only for the partitions the caller says are replaying) never moves a partition
 *       forward past unapplied records: it starts at the earlier of the replay point and the resume point, unless
 *       the user explicitly asked to skip ({@code --skip-unapplied}). A replay point below the log start offset
 *       starts at the log start offset; one past the end offset at the end offset. A timestamp with no record at or
 *       after it means "nothing to replay": the partition resumes at its resume point.</li>
 * </ol>
 */
public final class StartPositions {
    private StartPositions() {
    }

    /** The outcome: a seek for every partition, or one line saying why the sink must not start. */
    public sealed interface Decision {
    }

    /**
     * Start every partition at its offset.
     *
     * @param offsets  the offset to seek to, per partition
     * @param warnings one line per partition where the user's explicit choice skips records (for a WARN log)
     * @param notes    one line per partition the target never stored, saying where it starts and why (for an INFO log)
     * @param gaps     the retention gaps the user accepted, to record in the target with the offsets
     */
    public record Seek(Map<TopicPartition, Long> offsets, List<String> warnings, List<String> notes, List<AcceptedGap> gaps)
            implements Decision {
        public Seek(Map<TopicPartition, Long> offsets, List<String> warnings) {
            this(offsets, warnings, List.of(), List.of());
        }

        public Seek {
            offsets = Map.copyOf(offsets);
            warnings = List.copyOf(warnings);
            notes = List.copyOf(notes);
            gaps = List.copyOf(gaps);
        }
    }

    /**
     * A gap the user accepted ({@code --accept-retention-gap}): the partition's records from {@code from} (the stored
     * offset, 0 when none) up to {@code to} (where it now starts) are never applied; for a stored offset past the end
     * (a re-created topic) {@code from} is above {@code to}: the stored offset moves back to the new topic's start.
     */
    public record AcceptedGap(TopicPartition partition, long from, long to) {
    }

    /** The sink must stop: {@code reason} is one line naming every partition at fault and how to recover. */
    public record Refuse(String reason) implements Decision {
        public Refuse {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * What the consumer thread knows about the partitions being assigned.
     *
     * @param partitions     the partitions to position
     * @param stored         the target's stored next offsets (absent: never stored)
     * @param logStart       each partition's log start (earliest retained) offset
     * @param logEnd         each partition's end offset
     * @param replay         the user's replay request ({@link ReplayFrom.Stored} for none)
     * @param replaying      the partitions the replay applies to (the others resume)
     * @param timestampHits  for a {@link ReplayFrom.Since} replay: the first offset at or after the instant, per
     *                       partition (absent: no such record)
     * @param history        where the topics' complete histories begin, for partitions the target never stored
     *                       ({@link NewTargetStart})
     */
    public record Inputs(Collection<TopicPartition> partitions, Map<TopicPartition, Long> stored,
                         Map<TopicPartition, Long> logStart, Map<TopicPartition, Long> logEnd, ReplayFrom replay,
                         Set<TopicPartition> replaying, Map<TopicPartition, Long> timestampHits, TopicHistory history) {
        /** Inputs for topics without a history topic ({@link TopicHistory#NONE}). */
        public Inputs(Collection<TopicPartition> partitions, Map<TopicPartition, Long> stored, Map<TopicPartition, Long> logStart,
                      Map<TopicPartition, Long> logEnd, ReplayFrom replay, Set<TopicPartition> replaying,
                      Map<TopicPartition, Long> timestampHits) {
            this(partitions, stored, logStart, logEnd, replay, replaying, timestampHits, TopicHistory.NONE);
        }

        public Inputs {
            Objects.requireNonNull(history, "history");
            partitions = List.copyOf(partitions);
            stored = Map.copyOf(stored);
            logStart = Map.copyOf(logStart);
            logEnd = Map.copyOf(logEnd);
            Objects.requireNonNull(replay, "replay");
            replaying = Set.copyOf(replaying);
            timestampHits = Map.copyOf(timestampHits);
        }
    }

    /**
     * Decides where each partition starts.
     *
     * @param acceptRetentionGap the user accepted, explicitly, that records deleted before the target applied them
     *                           are never applied (start at the log start offset)
     * @param skipUnapplied      the user asked, explicitly, that a replay point past the stored offset be used as is
     */
    public static Decision decide(Inputs in, boolean acceptRetentionGap, boolean skipUnapplied) {
        return decide(in, acceptRetentionGap, skipUnapplied, GapAdvice.REPAIR);
    }

    /** {@link #decide(Inputs, boolean, boolean)}, naming {@code advice}'s way on after a gap. */
    public static Decision decide(Inputs in, boolean acceptRetentionGap, boolean skipUnapplied, GapAdvice advice) {
        Tally tally = new Tally(acceptRetentionGap, advice);
        for (TopicPartition tp : in.partitions()) {
            Long from = resumePoint(in, tp, tally);
            if (from != null) {
                tally.seeks.put(tp, replayedSeek(in, tp, from, skipUnapplied, tally));
            }
        }
        return tally.decision();
    }

    /**
     * Where {@code tp} resumes before any replay (the stored offset, or where a new target starts, moved up to the log
     * start where the user accepted the gap), or null when {@code tally} took a refusal or a final seek for it.
     */
    private static Long resumePoint(Inputs in, TopicPartition tp, Tally tally) {
        long start = required(in.logStart(), tp, "log start offset");
        long end = required(in.logEnd(), tp, "end offset");
        Long stored = in.stored().get(tp);
        String where = where(tp);
        if (stored != null && stored > end) {
            String past = where + ": stored offset " + stored + " is past the end offset " + end
                    + " (was the topic deleted and re-created?)";
            if (tally.gap(tp, past, stored, start)) {
                tally.seeks.put(tp, start);
            }
            return null;
        }
        long from = stored == null ? 0 : stored;
        if (stored == null && !in.replaying().contains(tp)) {
            NewTargetStart.Outcome o = NewTargetStart.decide(tp, in.history(), start, end);
            if (o instanceof NewTargetStart.Refuse r && !(r.retention() && tally.acceptRetentionGap)) {
                tally.refusals.add(r.reason());
                tally.newTargetRefused = true;
                return null;
            }
            if (o instanceof NewTargetStart.From f) {
                from = f.offset();
                tally.notes.add(f.why());
            }
        }
        if (from >= start) {
            return from;
        }
        String gap = stored == null
                ? where + ": no stored offset, earliest offset " + start + ": records 0.." + (start - 1)
                        + " were deleted before this target read them"
                : where + ": stored offset " + stored + " is below the earliest offset " + start + ": records " + stored + ".."
                        + (start - 1) + " were deleted (retention) before the target applied them";
        return tally.gap(tp, gap, from, start) ? start : null;
    }

    /** Where {@code tp} starts given its resume point: a replay never skips unapplied records unless the user asked. */
    private static long replayedSeek(Inputs in, TopicPartition tp, long resume, boolean skipUnapplied, Tally tally) {
        long start = in.logStart().get(tp);
        Long point = in.replaying().contains(tp) ? replayPoint(in, tp, start) : null;
        if (point == null) {
            return resume;
        }
        long bounded = Math.min(Math.max(point, start), in.logEnd().get(tp));
        if (bounded <= resume) {
            return bounded;
        }
        if (skipUnapplied) {
            tally.warnings.add(where(tp) + ": skipping records " + resume + ".." + (bounded - 1)
                    + " the target has not applied, as --skip-unapplied asks");
            return bounded;
        }
        return resume;
    }

    private static String where(TopicPartition tp) {
        return "topic " + tp.topic() + " partition " + tp.partition();
    }

    /** What the partitions decided so far: their seeks, and the lines the decision carries. */
    private static final class Tally {
        private final boolean acceptRetentionGap;
        private final GapAdvice advice;
        private final Map<TopicPartition, Long> seeks = new LinkedHashMap<>();
        private final Set<String> gapTopics = new java.util.TreeSet<>();
        private final List<String> refusals = new ArrayList<>();
        private final List<String> warnings = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();
        private final List<AcceptedGap> gaps = new ArrayList<>();
        private boolean newTargetRefused;

        Tally(boolean acceptRetentionGap, GapAdvice advice) {
            this.acceptRetentionGap = acceptRetentionGap;
            this.advice = advice;
        }

        /**
         * Records from {@code from} up to {@code start} of {@code tp} are gone ({@code line} says how): refused, or,
         * where the user accepted the gap, warned about and kept as an {@link AcceptedGap}. True if accepted (the
         * partition then starts at {@code start}).
         */
        boolean gap(TopicPartition tp, String line, long from, long start) {
            if (!acceptRetentionGap) {
                refusals.add(line);
                gapTopics.add(tp.topic());
                return false;
            }
            warnings.add("accepted retention gap, " + where(tp) + " from offset " + from + " to offset " + start + ": " + line
                    + "; starting at " + start + " as --accept-retention-gap asks (then " + advice.rebuild(List.of(tp.topic())) + ")");
            gaps.add(new AcceptedGap(tp, from, start));
            return true;
        }

        Decision decision() {
            if (!refusals.isEmpty()) {
                return new Refuse(String.join("; ", refusals) + (gapTopics.isEmpty() ? ""
                        : ". Nothing was skipped. To go on, either restore the records, or " + advice.wayOn(gapTopics))
                        + (newTargetRefused ? ". Nothing was applied; " + NewTargetStart.WAY_ON : ""));
            }
            return new Seek(seeks, warnings, notes, gaps);
        }
    }

    /** The replay point of one partition, or null when the replay names none for it (it then resumes). */
    private static Long replayPoint(Inputs in, TopicPartition tp, long start) {
        ReplayFrom replay = in.replay();
        if (replay instanceof ReplayFrom.Stored) {
            return null;
        }
        if (replay instanceof ReplayFrom.Earliest) {
            return start;
        }
        if (replay instanceof ReplayFrom.Offsets offsets) {
            Long o = offsets.offsets().get(tp.topic() + ":" + tp.partition());
            return o != null ? o : offsets.offsets().get(Integer.toString(tp.partition()));
        }
        if (replay instanceof ReplayFrom.Since) {
            return in.timestampHits().get(tp);
        }
        throw new IllegalArgumentException("unknown replay " + replay);
    }

    private static long required(Map<TopicPartition, Long> offsets, TopicPartition tp, String what) {
        Long o = offsets.get(tp);
        if (o == null) {
            throw new IllegalArgumentException("no " + what + " for " + tp);
        }
        return o;
    }
}
