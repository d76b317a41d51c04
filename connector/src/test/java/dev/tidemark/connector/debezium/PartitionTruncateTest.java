package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.TableId;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class PartitionTruncateTest {
    static final TableId ROOT = new TableId("public", "m");
    static final TableId LEAF = new TableId("public", "m_1");
    static final PartitionTruncate.Message M = new PartitionTruncate.Message("p", 42, LEAF, ROOT);

    @Test
    void aTruncatedPartitionOfACapturedRootStopsNamingPartitionRootAndTheSnapshot() {
        assertThat(PartitionTruncate.decide(M, "p", List.of(ROOT), false, () -> false, "p.yaml")).isEqualTo(new PartitionTruncate.Stop(
                "capture stopped: partition public.m_1 of captured table public.m was truncated at the source, and PostgreSQL "
                        + "publishes no TRUNCATE of one partition, so the target still holds its rows: run `tidemark snapshot --config "
                        + "p.yaml --table public.m` (it reads public.m again and removes the rows the source no longer holds)"));
    }

    @Test
    void withASnapshotOfTheRootRequestedAfterItTheTruncateIsFollowed() {
        assertThat(PartitionTruncate.decide(M, "p", List.of(ROOT), false, () -> true, null)).isInstanceOf(PartitionTruncate.Follow.class)
                .extracting(o -> ((PartitionTruncate.Follow) o).note()).asString()
                .contains("a snapshot of public.m was requested after partition public.m_1 was truncated");
    }

    @Test
    void anotherPipelinesOrAnUncapturedRootsOrARootTruncateIsIgnoredWithoutAskingForASnapshot() {
        AtomicBoolean asked = new AtomicBoolean();
        assertThat(PartitionTruncate.decide(M, "other", List.of(ROOT), false, () -> asked.getAndSet(true), "p.yaml"))
                .isEqualTo(new PartitionTruncate.Ignore());
        assertThat(PartitionTruncate.decide(M, "p", List.of(new TableId("public", "t")), false, () -> asked.getAndSet(true), "p.yaml"))
                .isEqualTo(new PartitionTruncate.Ignore());
        assertThat(PartitionTruncate.decide(M, "p", List.of(ROOT), true, () -> asked.getAndSet(true), "p.yaml"))
                .isEqualTo(new PartitionTruncate.Ignore());
        assertThat(asked).isFalse();
    }

    @Test
    void theMessageOfTheTriggerIsParsedAndAnUnknownOneRefused() {
        String json = "{\"v\": 1, \"pipeline\": \"p\", \"oid\": 42, \"schema\": \"public\", \"table\": \"m_1\", "
                + "\"root\": {\"schema\": \"public\", \"table\": \"m\"}}";
        assertThat(PartitionTruncate.Message.parse(json.getBytes(StandardCharsets.UTF_8))).isEqualTo(M);
        assertThatThrownBy(() -> PartitionTruncate.Message.parse("{\"v\": 2}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PartitionTruncate.Message.parse("not json".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void catalogComparisonModeSaysAtStartThatAPartitionTruncateIsNotSeenAndWhatToRun() {
        assertThat(PartitionTruncate.catalogModeLine("p", List.of(ROOT, new TableId("s", "r")), "p.yaml")).isEqualTo(
                "capture p: a TRUNCATE of one partition of public.m, s.r is not seen in catalog-comparison mode (PostgreSQL "
                        + "publishes none, and the trigger that reports one needs the event-trigger mode's superuser): the target "
                        + "keeps its rows until you run `tidemark snapshot --config p.yaml --table public.m` or `tidemark snapshot "
                        + "--config p.yaml --table s.r`");
    }

    @Test
    void aRootTruncateCoversTheLeafMessagesOfItsTransactionUntilARowOfTheRootChanges() {
        RootTruncates roots = new RootTruncates();
        assertThat(roots.covers(ROOT, 7L)).as("no truncate of the root seen").isFalse();
        roots.observe(ROOT, "t", 7L);
        assertThat(roots.covers(ROOT, 7L)).isTrue();
        assertThat(roots.covers(ROOT, 8L)).as("another transaction").isFalse();
        assertThat(roots.covers(ROOT, null)).as("transaction not known").isFalse();
        roots.observe(new TableId("public", "t"), "c", 7L);
        assertThat(roots.covers(ROOT, 7L)).as("another table's row").isTrue();
        roots.observe(ROOT, "c", 7L);
        assertThat(roots.covers(ROOT, 7L)).as("a row inserted again after the root's truncate, then a partition truncated").isFalse();
        roots.observe(ROOT, "t", null);
        assertThat(roots.covers(ROOT, 7L)).isFalse();
    }
}
