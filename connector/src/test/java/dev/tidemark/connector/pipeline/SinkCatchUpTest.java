package dev.tidemark.connector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class SinkCatchUpTest {
    private static final TopicPartition P0 = new TopicPartition("p.public.items", 0);
    private static final TopicPartition P1 = new TopicPartition("p.public.items", 1);

    @Test
    void caughtUpOnceEveryOwnedPartitionIsAppliedToWhereCaptureSent() {
        Map<TopicPartition, Long> sent = Map.of(P0, 1000L, P1, 1285L);
        assertThat(SinkCatchUp.caughtUp(sent, Map.of(P0, 1000L, P1, 1000L), Set.of(P0, P1))).isFalse();
        assertThat(SinkCatchUp.caughtUp(sent, Map.of(P0, 1000L), Set.of(P0, P1))).as("nothing applied on P1 yet").isFalse();
        assertThat(SinkCatchUp.caughtUp(sent, Map.of(P0, 1000L, P1, 1285L), Set.of(P0, P1))).isTrue();
        assertThat(SinkCatchUp.caughtUp(sent, Map.of(P0, 1001L, P1, 1300L), Set.of(P0, P1))).as("applied further (earlier runs)").isTrue();
    }

    @Test
    void aPartitionAnotherMemberOwnsIsNotWaitedFor() {
        assertThat(SinkCatchUp.caughtUp(Map.of(P0, 10L, P1, 10L), Map.of(P0, 10L), Set.of(P0))).isTrue();
        assertThat(SinkCatchUp.caughtUp(Map.of(), Map.of(), Set.of(P0))).as("capture sent nothing").isTrue();
    }

    @Test
    void whatIsNotAppliedNamesEachOwnedPartitionBehindWithItsOffsets() {
        TopicPartition other = new TopicPartition("p.public.a", 0);
        Map<TopicPartition, Long> sent = Map.of(P1, 1285L, P0, 1000L, other, 5L);
        assertThat(SinkCatchUp.unapplied(sent, Map.of(P0, 1000L, P1, 700L), Set.of(P0, P1, other)))
                .isEqualTo("topic p.public.a partition 0 offsets 0 to 4, topic p.public.items partition 1 offsets 700 to 1284");
        assertThat(SinkCatchUp.unapplied(sent, Map.of(P1, 700L), Set.of(P0))).as("P0 not applied, P1 another member's")
                .isEqualTo("topic p.public.items partition 0 offsets 0 to 999");
        assertThat(SinkCatchUp.unapplied(sent, sent, Set.of(P0, P1, other))).isEmpty();
    }

    @Test
    void theLineForACatchUpThatRanOutNamesWhatWasNotAppliedAndTheCommandThatAppliesIt() {
        assertThat(SinkCatchUp.notAppliedLine("p", java.time.Duration.ofSeconds(60), "p.yaml", "topic t partition 0 offsets 3 to 9"))
                .isEqualTo("sink p: capture stopped on a change, and within 60 s the sink did not apply every record capture sent "
                        + "before it; not applied: topic t partition 0 offsets 3 to 9. They stay in Kafka, but once their table has "
                        + "left source.tables no sink reads them: before following capture's line, run `tidemark sink --config p.yaml` "
                        + "until `tidemark status --config p.yaml` shows lag 0, then stop it");
    }
}
