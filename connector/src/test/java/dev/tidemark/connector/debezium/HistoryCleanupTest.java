package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HistoryCleanupTest {
    static final String TOPIC = "shop.__tidemark_history";
    static final Set<String> OWN = Set.of("shop.public.orders", "shop.public.order-2Ditems");

    @Test
    void theTopicIsDeletedOnlyWhenEveryLiveKeyIsThePipelines() {
        assertThat(HistoryCleanup.decide(TOPIC, List.of("shop.public.orders-0", "shop.public.orders-1", "shop.public.order-2Ditems-0"), OWN))
                .isEqualTo(new HistoryCleanup.DeleteTopic(TOPIC, List.of("shop.public.order-2Ditems-0", "shop.public.orders-0",
                        "shop.public.orders-1")));
    }

    @Test
    void anotherPipelinesLiveKeyKeepsTheTopicAndOnlyOwnKeysGetTombstones() {
        HistoryCleanup c = HistoryCleanup.decide(TOPIC, List.of("shop.public.orders-0", "shop.public.customers-0", "shop.public.customers-1"), OWN);
        assertThat(c).isEqualTo(new HistoryCleanup.Tombstones(TOPIC, List.of("shop.public.orders-0"), 2));
        assertThat(c.items()).singleElement().asString().contains("1 record(s) in history topic " + TOPIC, "2 record(s) of other pipelines");
    }

    @Test
    void aTopicWithoutALiveKeyOfThePipelineIsLeftAlone() {
        assertThat(HistoryCleanup.decide(TOPIC, List.of("shop.public.customers-0"), OWN)).isEqualTo(HistoryCleanup.NOTHING);
        assertThat(HistoryCleanup.decide(TOPIC, List.of(), OWN)).isEqualTo(HistoryCleanup.NOTHING);
        assertThat(HistoryCleanup.NOTHING.items()).isEmpty();
    }

    @Test
    void aKeysTopicIsWhatPrecedesItsPartitionNumber() {
        assertThat(HistoryCleanup.topicOf("shop.public.order-2Ditems-12")).isEqualTo("shop.public.order-2Ditems");
        assertThat(HistoryCleanup.topicOf("odd-key")).isEqualTo("odd-key");
    }
}
