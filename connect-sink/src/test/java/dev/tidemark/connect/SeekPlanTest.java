package dev.tidemark.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class SeekPlanTest {
    private static final TopicPartition O0 = new TopicPartition("orders", 0);
    private static final TopicPartition O1 = new TopicPartition("orders", 1);
    private static final TopicPartition C0 = new TopicPartition("customers", 0);

    @Test
    void storedOffsetsWinAndPartitionsWithoutOneStartAtTheirFirstRecord() {
        Map<String, Map<Integer, Long>> stored = Map.of("orders", Map.of(0, 120L, 2, 9L));
        assertThat(SeekPlan.plan(List.of(O0, O1, C0), stored)).containsExactly(
                Map.entry(O0, 120L), Map.entry(O1, 0L), Map.entry(C0, 0L));
        assertThat(SeekPlan.storedOnly(List.of(O0, O1, C0), stored)).containsExactly(Map.entry(O0, 120L));
    }

    @Test
    void onlyOpenedPartitionsAreSought() {
        assertThat(SeekPlan.plan(List.of(O1), Map.of("orders", Map.of(0, 120L, 1, 5L)))).containsExactly(Map.entry(O1, 5L));
        assertThat(SeekPlan.plan(List.of(), Map.of("orders", Map.of(0, 1L)))).isEmpty();
    }
}
