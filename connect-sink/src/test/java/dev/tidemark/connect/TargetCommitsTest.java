package dev.tidemark.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.sink.jdbc.PartitionOffset;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class TargetCommitsTest {
    private static final TopicPartition O0 = new TopicPartition("orders", 0);
    private static final TopicPartition O1 = new TopicPartition("orders", 1);

    @Test
    void preCommitReturnsOnlyOffsetsCommittedInTheTarget() {
        TargetCommits c = new TargetCommits();
        Map<TopicPartition, OffsetAndMetadata> current = Map.of(O0, new OffsetAndMetadata(150), O1, new OffsetAndMetadata(7));
        assertThat(c.forKafka(current)).isEmpty();
        c.read(Map.of(O0, 100L));
        assertThat(c.forKafka(current)).containsExactly(Map.entry(O0, new OffsetAndMetadata(100)));
        c.committed(List.of(new PartitionOffset("orders", 0, 120), new PartitionOffset("orders", 1, 3)));
        assertThat(c.forKafka(current)).containsOnly(Map.entry(O0, new OffsetAndMetadata(120)), Map.entry(O1, new OffsetAndMetadata(3)));
    }

    @Test
    void partitionsConnectDoesNotAskAboutOrThatWereClosedAreLeftOut() {
        TargetCommits c = new TargetCommits();
        c.committed(List.of(new PartitionOffset("orders", 0, 120), new PartitionOffset("orders", 1, 3)));
        assertThat(c.forKafka(Map.of(O1, new OffsetAndMetadata(9)))).containsExactly(Map.entry(O1, new OffsetAndMetadata(3)));
        c.forget(List.of(O1));
        assertThat(c.forKafka(Map.of(O0, new OffsetAndMetadata(130), O1, new OffsetAndMetadata(9))))
                .containsExactly(Map.entry(O0, new OffsetAndMetadata(120)));
    }
}
