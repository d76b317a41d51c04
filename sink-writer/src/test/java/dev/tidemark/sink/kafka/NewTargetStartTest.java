package dev.tidemark.sink.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Where a partition the target never stored starts, from capture's history topic; and the record's wire form. */
class NewTargetStartTest {
    static final TopicPartition P0 = new TopicPartition("shop.public.orders", 0);
    static final TopicPartition P1 = new TopicPartition("shop.public.orders", 1);
    static final Instant AT = Instant.parse("2026-12-01T21:00:00Z");
    static final String HISTORY = "shop.__tidemark_history";

    private static TopicHistory kept(HistoryRecord... records) {
        Map<TopicPartition, HistoryRecord> m = new java.util.HashMap<>();
        for (HistoryRecord r : records) {
            m.put(r.partition(), r);
        }
        return new TopicHistory.Kept(HISTORY, m);
    }

    /** Both partitions hold offsets {@code logStart..999}; the target stored nothing. */
    private static StartPositions.Decision decide(TopicHistory history, long logStart, Set<TopicPartition> replaying, boolean acceptRetentionGap) {
        ReplayFrom replay = replaying.isEmpty() ? new ReplayFrom.Stored() : new ReplayFrom.Earliest();
        return StartPositions.decide(new StartPositions.Inputs(List.of(P0, P1), Map.of(), Map.of(P0, logStart, P1, logStart),
                Map.of(P0, 1000L, P1, 1000L), replay, replaying, Map.of(), history), acceptRetentionGap, false);
    }

    @Test
    void aCompleteHistoryStartsWhereItBegins() {
        var d = decide(kept(new HistoryRecord.Complete(P0, 0, "the initial snapshot", AT),
                new HistoryRecord.Complete(P1, 640, "a re-snapshot (--resnapshot)", AT)), 0, Set.of(), false);
        assertThat(d).isInstanceOf(StartPositions.Seek.class);
        StartPositions.Seek seek = (StartPositions.Seek) d;
        assertThat(seek.offsets()).isEqualTo(Map.of(P0, 0L, P1, 640L));
        assertThat(seek.notes()).containsExactly(
                "topic shop.public.orders partition 0: the target has no stored offset: starting at offset 0, where its complete history"
                        + " starts (the initial snapshot, 2026-12-01T21:00:00Z)",
                "topic shop.public.orders partition 1: the target has no stored offset: starting at offset 640, where its complete history"
                        + " starts (a re-snapshot (--resnapshot), 2026-12-01T21:00:00Z)");
        assertThat(seek.warnings()).isEmpty();
    }

    @Test
    void aGapAfterTheHistoryIsRefusedNamingTheWayOnOnce() {
        var d = decide(kept(new HistoryRecord.Gap(P0, 812, AT), new HistoryRecord.Gap(P1, 790, AT)), 0, Set.of(), false);
        assertThat(d).isInstanceOf(StartPositions.Refuse.class);
        String reason = ((StartPositions.Refuse) d).reason();
        assertThat(reason).contains("topic shop.public.orders partition 0: the target has no stored offset and its history is not"
                + " complete: capture accepted a gap at offset 812 (--accept-gap, 2026-12-01T21:00:00Z)", "partition 1", "offset 790")
                .endsWith(". Nothing was applied; build this target from a new snapshot: `tidemark run --config <pipeline file> --resnapshot`")
                .doesNotContain("--accept-retention-gap");
        assertThat(reason.split("`tidemark ", -1)).as("one command").hasSize(2);
    }

    @Test
    void aHistoryTopicWithoutARecordForThePartitionIsRefused() {
        var d = decide(kept(new HistoryRecord.Complete(P0, 0, "the initial snapshot", AT)), 0, Set.of(), false);
        assertThat(d).isInstanceOf(StartPositions.Refuse.class);
        assertThat(((StartPositions.Refuse) d).reason()).contains("partition 1: the target has no stored offset and capture's history"
                + " topic shop.__tidemark_history records no complete snapshot of it").doesNotContain("partition 0");
    }

    @Test
    void aHistoryPartlyRemovedByRetentionIsRefusedUnlessTheGapIsAccepted() {
        TopicHistory h = kept(new HistoryRecord.Complete(P0, 100, "a re-snapshot (--resnapshot)", AT),
                new HistoryRecord.Complete(P1, 300, "a re-snapshot (--resnapshot)", AT));
        var refused = decide(h, 200, Set.of(), false);
        assertThat(refused).isInstanceOf(StartPositions.Refuse.class);
        assertThat(((StartPositions.Refuse) refused).reason()).contains("partition 0: the target has no stored offset and its complete"
                + " history, from offset 100 (a re-snapshot (--resnapshot), 2026-12-01T21:00:00Z), lost records 100..199 to retention"
                + " or compaction").doesNotContain("partition 1");

        var accepted = decide(h, 200, Set.of(), true);
        assertThat(((StartPositions.Seek) accepted).offsets()).isEqualTo(Map.of(P0, 200L, P1, 300L));
        assertThat(((StartPositions.Seek) accepted).warnings()).singleElement().asString().contains("partition 0", "--accept-retention-gap");
    }

    @Test
    void aHistoryPastTheEndIsRefused() {
        var d = decide(kept(new HistoryRecord.Complete(P0, 5000, "the initial snapshot", AT),
                new HistoryRecord.Complete(P1, 0, "the initial snapshot", AT)), 0, Set.of(), false);
        assertThat(((StartPositions.Refuse) d).reason()).contains("partition 0", "starts at offset 5000", "end offset 1000");
    }

    @Test
    void withoutAHistoryTopicTheBeginningIsTakenAsCompleteAndSaidSo() {
        var d = decide(new TopicHistory.NotKept(HISTORY), 0, Set.of(), false);
        StartPositions.Seek seek = (StartPositions.Seek) d;
        assertThat(seek.offsets()).isEqualTo(Map.of(P0, 0L, P1, 0L));
        assertThat(seek.notes()).hasSize(2).allSatisfy(n -> assertThat(n).contains("no Tidemark history topic",
                "taking their beginning as a complete history, from offset 0"));

        var retained = decide(TopicHistory.NONE, 50, Set.of(), false);
        assertThat(((StartPositions.Refuse) retained).reason()).as("the log-start rule still applies").contains("records 0..49 were deleted",
                "--accept-retention-gap");
    }

    @Test
    void anExplicitReplayOverridesTheHistory() {
        var d = decide(kept(new HistoryRecord.Gap(P0, 812, AT), new HistoryRecord.Gap(P1, 790, AT)), 0, Set.of(P0, P1), false);
        assertThat(((StartPositions.Seek) d).offsets()).isEqualTo(Map.of(P0, 0L, P1, 0L));
    }

    @Test
    void recordsRoundTripAndAnUnknownVersionIsRefused() {
        for (HistoryRecord r : List.of(new HistoryRecord.Complete(P1, 640, "a re-snapshot (--resnapshot)", AT), new HistoryRecord.Gap(P0, 812, AT))) {
            assertThat(HistoryRecord.decode(HistoryRecord.encode(r))).isEqualTo(r);
        }
        assertThat(new String(HistoryRecord.key(P1), StandardCharsets.UTF_8)).isEqualTo("shop.public.orders-1");
        assertThat(new String(HistoryRecord.encode(new HistoryRecord.Gap(P0, 812, AT)), StandardCharsets.UTF_8))
                .isEqualTo("{\"version\":1,\"topic\":\"shop.public.orders\",\"partition\":0,\"kind\":\"gap\",\"offset\":812,"
                        + "\"at\":\"2026-12-01T21:00:00Z\"}");
        assertThatThrownBy(() -> HistoryRecord.decode("{\"version\":2,\"kind\":\"complete\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown version 2");
        assertThat(HistoryRecord.topicFor("shop")).isEqualTo("shop.__tidemark_history");
    }
}
