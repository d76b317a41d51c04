package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.sink.kafka.HistoryRecord;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class HistoryPlanTest {
    static final TopicPartition A0 = new TopicPartition("shop.public.a", 0);
    static final TopicPartition A1 = new TopicPartition("shop.public.a", 1);
    static final Map<TopicPartition, Long> ENDS = Map.of(A1, 70L, A0, 0L);
    static final Instant NOW = Instant.parse("2026-12-01T21:00:00Z");

    @Test
    void aSnapshotStartsACompleteHistoryAtEachEndOffset() {
        assertThat(HistoryPlan.records(new CaptureStart.Fresh(), ENDS, NOW)).containsExactly(
                new HistoryRecord.Complete(A0, 0, "the initial snapshot", NOW), new HistoryRecord.Complete(A1, 70, "the initial snapshot", NOW));
        assertThat(HistoryPlan.records(new CaptureStart.Resnapshot(true, true), ENDS, NOW)).containsExactly(
                new HistoryRecord.Complete(A0, 0, "a re-snapshot (--resnapshot)", NOW),
                new HistoryRecord.Complete(A1, 70, "a re-snapshot (--resnapshot)", NOW));
    }

    @Test
    void anAcceptedGapIsRecordedAndAResumeRecordsNothing() {
        assertThat(HistoryPlan.records(new CaptureStart.AcceptGap(false), ENDS, NOW)).containsExactly(
                new HistoryRecord.Gap(A0, 0, NOW), new HistoryRecord.Gap(A1, 70, NOW));
        assertThat(HistoryPlan.records(new CaptureStart.Resume(null), ENDS, NOW)).isEmpty();
        assertThat(HistoryPlan.writes(new CaptureStart.Resume(null))).isFalse();
    }

    @Test
    void aTableAddedToAResumingPipelineStartsACompleteHistoryOnItsTopicOnly() {
        TopicPartition b0 = new TopicPartition("shop.public.b", 0);
        Map<TopicPartition, Long> ends = Map.of(A0, 40L, A1, 70L, b0, 0L);
        assertThat(HistoryPlan.writes(new CaptureStart.Resume(null), java.util.Set.of("shop.public.b"))).isTrue();
        assertThat(HistoryPlan.records(new CaptureStart.Resume(null), ends, java.util.Set.of("shop.public.b"), NOW)).containsExactly(
                new HistoryRecord.Complete(b0, 0, "the incremental snapshot of a table added to the pipeline", NOW));
        assertThat(HistoryPlan.records(new CaptureStart.Resume(null), ends, java.util.Set.of(), NOW)).isEmpty();
        assertThat(HistoryPlan.records(new CaptureStart.Fresh(), ends, java.util.Set.of("shop.public.b"), NOW)).hasSize(3)
                .allSatisfy(r -> assertThat(((HistoryRecord.Complete) r).cause()).isEqualTo("the initial snapshot"));
    }
}
