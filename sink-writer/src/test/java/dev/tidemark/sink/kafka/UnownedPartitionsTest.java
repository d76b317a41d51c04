package dev.tidemark.sink.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class UnownedPartitionsTest {
    private static TopicPartition tp(String topic, int p) {
        return new TopicPartition(topic, p);
    }

    @Test
    void aTopicAddedToTheSubscriptionThatNoMemberWasAssignedIsUnowned() {
        // a static member rejoined with the assignment it had before public.added was captured
        Set<TopicPartition> unowned = UnownedPartitions.of(Map.of("p.public.old", 2, "p.public.added", 2),
                List.of(Set.of(tp("p.public.old", 0), tp("p.public.old", 1))));
        assertThat(unowned).containsExactly(tp("p.public.added", 0), tp("p.public.added", 1));
    }

    @Test
    void partitionsSpreadOverSeveralMembersAreAllOwned() {
        assertThat(UnownedPartitions.of(Map.of("t", 3), List.of(Set.of(tp("t", 0), tp("t", 2)), Set.of(tp("t", 1))))).isEmpty();
    }

    @Test
    void aTopicNotCreatedYetIsNoConcernAndOneMissingPartitionIsNamed() {
        assertThat(UnownedPartitions.of(Map.of("t", 2), List.of(Set.of(tp("t", 0), tp("other", 0))))).containsExactly(tp("t", 1));
        assertThat(UnownedPartitions.of(Map.of(), List.of())).isEmpty();
    }
}
