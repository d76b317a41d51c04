package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicPartitionCheckTest {
    @Test
    void noExistingTopicOrMatchingCountsPass() {
        assertThat(TopicPartitionCheck.refusal(Map.of(), 3)).isEmpty();
        assertThat(TopicPartitionCheck.refusal(Map.of("p.public.a", 3, "p.public.b", 3), 3)).isEmpty();
    }

    @Test
    void aDifferentCountIsRefusedNamingTopicBothCountsAndTheWaysOn() {
        assertThat(TopicPartitionCheck.refusal(Map.of("p.public.b", 3, "p.public.a", 1), 3)).hasValue(
                "topic p.public.a exists with 1 partition but the config says kafka.partitions: 3; set kafka.partitions: 1 to keep "
                        + "the topic, or delete the topic (and, if the target applied from it, its rows in tidemark_offsets) so "
                        + "capture creates it with 3");
        assertThat(TopicPartitionCheck.refusal(Map.of("p.public.a", 4), 2).orElseThrow())
                .startsWith("topic p.public.a exists with 4 partitions but the config says kafka.partitions: 2");
    }
}
