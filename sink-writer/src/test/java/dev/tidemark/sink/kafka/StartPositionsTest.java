package dev.tidemark.sink.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class StartPositionsTest {
    static final TopicPartition P0 = new TopicPartition("shop.public.orders", 0);
    static final TopicPartition P1 = new TopicPartition("shop.public.orders", 1);
    static final List<TopicPartition> BOTH = List.of(P0, P1);

    /** Both partitions hold offsets 0..999; the target stored 400 for P0 and 700 for P1. */
    private static StartPositions.Inputs inputs(ReplayFrom replay, Map<TopicPartition, Long> hits) {
        return new StartPositions.Inputs(BOTH, Map.of(P0, 400L, P1, 700L), Map.of(P0, 0L, P1, 0L), Map.of(P0, 1000L, P1, 1000L),
                replay, replay instanceof ReplayFrom.Stored ? Set.of() : Set.copyOf(BOTH), hits);
    }

    private static Map<TopicPartition, Long> seeks(StartPositions.Decision d) {
        assertThat(d).isInstanceOf(StartPositions.Seek.class);
        return ((StartPositions.Seek) d).offsets();
    }

    @Test
    void resumesAtTheStoredOffsetsAndAtZeroForANewPartition() {
        var in = new StartPositions.Inputs(BOTH, Map.of(P0, 400L), Map.of(P0, 0L, P1, 0L), Map.of(P0, 1000L, P1, 1000L),
                new ReplayFrom.Stored(), Set.of(), Map.of());
        assertThat(seeks(StartPositions.decide(in, false, false))).isEqualTo(Map.of(P0, 400L, P1, 0L));
    }

    @Test
    void replayOffsetsStartAtTheEarlierOfReplayPointAndStoredOffset() {
        var d = StartPositions.decide(inputs(ReplayFrom.parse("0:100,1:900"), Map.of()), false, false);
        assertThat(seeks(d)).isEqualTo(Map.of(P0, 100L, P1, 700L));
        assertThat(((StartPositions.Seek) d).warnings()).isEmpty();
    }

    @Test
    void topicQualifiedOffsetsWinAndUnnamedPartitionsResume() {
        var d = StartPositions.decide(inputs(ReplayFrom.parse("shop.public.orders:1:5,1:600"), Map.of()), false, false);
        assertThat(seeks(d)).isEqualTo(Map.of(P0, 400L, P1, 5L));
    }

    @Test
    void skippingForwardNeedsTheExplicitFlagAndIsWarned() {
        var d = StartPositions.decide(inputs(ReplayFrom.parse("0:100,1:900"), Map.of()), false, true);
        assertThat(seeks(d)).isEqualTo(Map.of(P0, 100L, P1, 900L));
        assertThat(((StartPositions.Seek) d).warnings()).singleElement().asString()
                .contains("partition 1").contains("skipping records 700..899").contains("--skip-unapplied");
    }

    @Test
    void aTimestampWithNoLaterRecordResumesAtTheStoredOffset() {
        var d = StartPositions.decide(inputs(new ReplayFrom.Since(Instant.parse("2030-01-01T00:00:00Z")), Map.of(P0, 250L)), false, false);
        assertThat(seeks(d)).isEqualTo(Map.of(P0, 250L, P1, 700L));
    }

    @Test
    void aTimestampPastTheStoredOffsetDoesNotMoveForward() {
        var d = StartPositions.decide(inputs(new ReplayFrom.Since(Instant.EPOCH), Map.of(P0, 900L, P1, 10L)), false, false);
        assertThat(seeks(d)).isEqualTo(Map.of(P0, 400L, P1, 10L));
    }

    @Test
    void earliestStartsAtTheLogStartOffset() {
        var in = new StartPositions.Inputs(BOTH, Map.of(P0, 400L, P1, 700L), Map.of(P0, 50L, P1, 0L), Map.of(P0, 1000L, P1, 1000L),
                new ReplayFrom.Earliest(), Set.of(P0), Map.of());
        assertThat(seeks(StartPositions.decide(in, false, false))).isEqualTo(Map.of(P0, 50L, P1, 700L));
    }

    @Test
    void replayPointsOutsideTheLogAreBoundedByItsStartAndEnd() {
        var in = new StartPositions.Inputs(BOTH, Map.of(P0, 400L, P1, 700L), Map.of(P0, 50L, P1, 0L), Map.of(P0, 1000L, P1, 800L),
                ReplayFrom.parse("0:10,1:5000"), Set.copyOf(BOTH), Map.of());
        assertThat(seeks(StartPositions.decide(in, false, true))).isEqualTo(Map.of(P0, 50L, P1, 800L));
    }

    @Test
    void partitionsNotReplayingResumeEvenDuringAReplay() {
        var in = new StartPositions.Inputs(BOTH, Map.of(P0, 400L, P1, 700L), Map.of(P0, 0L, P1, 0L), Map.of(P0, 1000L, P1, 1000L),
                new ReplayFrom.Earliest(), Set.of(P1), Map.of());
        assertThat(seeks(StartPositions.decide(in, false, false))).isEqualTo(Map.of(P0, 400L, P1, 0L));
    }

    @Test
    void aStoredOffsetBelowTheLogStartIsRefusedInOneLineNamingBothOffsets() {
        Map<TopicPartition, Long> start = new HashMap<>(Map.of(P0, 450L, P1, 0L));
        var in = new StartPositions.Inputs(BOTH, Map.of(P0, 400L, P1, 700L), start, Map.of(P0, 1000L, P1, 1000L),
                new ReplayFrom.Stored(), Set.of(), Map.of());
        var d = StartPositions.decide(in, false, false);
        assertThat(d).isInstanceOf(StartPositions.Refuse.class);
        assertThat(((StartPositions.Refuse) d).reason())
                .contains("topic shop.public.orders partition 0: stored offset 400 is below the earliest offset 450")
                .contains("records 400..449").contains("--accept-retention-gap").contains("tidemark reconcile --config")
                .doesNotContain("partition 1").doesNotContain("\n");
    }

    @Test
    void aReplayDoesNotHideARetentionGap() {
        var in = new StartPositions.Inputs(BOTH, Map.of(P0, 400L, P1, 700L), Map.of(P0, 450L, P1, 0L), Map.of(P0, 1000L, P1, 1000L),
                new ReplayFrom.Earliest(), Set.copyOf(BOTH), Map.of());
        assertThat(StartPositions.decide(in, false, false)).isInstanceOf(StartPositions.Refuse.class);
    }

    @Test
    void aNewPartitionWhoseFirstRecordsWereDeletedIsRefused() {
        var in = new StartPositions.Inputs(List.of(P1), Map.of(), Map.of(P1, 40L), Map.of(P1, 100L), new ReplayFrom.Stored(), Set.of(), Map.of());
        var d = StartPositions.decide(in, false, false);
        assertThat(d).isInstanceOf(StartPositions.Refuse.class);
        assertThat(((StartPositions.Refuse) d).reason()).contains("partition 1: no stored offset, earliest offset 40: records 0..39");
    }

    @Test
    void anAcceptedGapStartsAtTheLogStartWithAWarning() {
        var in = new StartPositions.Inputs(BOTH, Map.of(P0, 400L), Map.of(P0, 450L, P1, 40L), Map.of(P0, 1000L, P1, 100L),
                new ReplayFrom.Stored(), Set.of(), Map.of());
        var d = StartPositions.decide(in, true, false);
        assertThat(seeks(d)).isEqualTo(Map.of(P0, 450L, P1, 40L));
        assertThat(((StartPositions.Seek) d).warnings()).hasSize(2).allMatch(w -> w.contains("--accept-retention-gap"));
    }

    @Test
    void aStoredOffsetPastTheEndIsRefusedNamingTheFlagAndTheRepair() {
        var in = new StartPositions.Inputs(List.of(P0), Map.of(P0, 400L), Map.of(P0, 0L), Map.of(P0, 10L), new ReplayFrom.Stored(), Set.of(), Map.of());
        var d = StartPositions.decide(in, false, false);
        assertThat(d).isInstanceOf(StartPositions.Refuse.class);
        assertThat(((StartPositions.Refuse) d).reason()).contains("stored offset 400 is past the end offset 10")
                .contains("`tidemark sink --config <pipeline file> --accept-retention-gap`")
                .contains("`tidemark reconcile --config <pipeline file> --repair --apply`")
                .doesNotContain("delete this partition's row").doesNotContain("\n");
    }

    @Test
    void anAcceptedStoredOffsetPastTheEndStartsAtTheLogStartAndIsRecordedAsAGap() {
        var in = new StartPositions.Inputs(List.of(P0), Map.of(P0, 400L), Map.of(P0, 0L), Map.of(P0, 10L), new ReplayFrom.Stored(), Set.of(), Map.of());
        var d = StartPositions.decide(in, true, false);
        assertThat(seeks(d)).isEqualTo(Map.of(P0, 0L));
        assertThat(((StartPositions.Seek) d).gaps()).containsExactly(new StartPositions.AcceptedGap(P0, 400L, 0L));
        assertThat(((StartPositions.Seek) d).warnings()).singleElement().asString()
                .contains("accepted retention gap, topic shop.public.orders partition 0 from offset 400 to offset 0");
    }

    @Test
    void everyRefusedPartitionIsNamedOnOneLine() {
        var in = new StartPositions.Inputs(BOTH, Map.of(P0, 1L, P1, 2L), Map.of(P0, 5L, P1, 6L), Map.of(P0, 10L, P1, 10L),
                new ReplayFrom.Stored(), Set.of(), Map.of());
        String reason = ((StartPositions.Refuse) StartPositions.decide(in, false, false)).reason();
        assertThat(reason).contains("partition 0: stored offset 1").contains("partition 1: stored offset 2").doesNotContain("\n");
    }
}
