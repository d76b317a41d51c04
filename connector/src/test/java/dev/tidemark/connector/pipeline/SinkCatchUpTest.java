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
}
