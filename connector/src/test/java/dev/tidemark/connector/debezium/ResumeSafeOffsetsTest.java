package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResumeSafeOffsetsTest {
    private static Map<String, ?> change(long lsn) {
        return Map.of("lsn", lsn, "lsn_proc", lsn, "lsn_commit", 10L, "messageType", "INSERT", "txId", 7L);
    }

    private static Map<String, ?> snapshotRead(long lsn) {
        return Map.of("lsn", lsn, "snapshot", "INITIAL", "last_snapshot_record", false);
    }

    private static Map<String, ?> marker(long lsn) {
        return Map.of("lsn", lsn, "lsn_proc", lsn, "lsn_commit", lsn, "messageType", "MESSAGE");
    }

    @SafeVarargs
    private static List<Map<String, ?>> batch(Map<String, ?>... offsets) {
        return new ArrayList<>(Arrays.asList(offsets));
    }

    @Test
    void aBatchEndingInsideAGroupStoresItsTrailingGroupWithTheOffsetBeforeTheGroup() {
        ResumeSafeOffsets plan = new ResumeSafeOffsets();
        List<Map<String, ?>> b = batch(change(100), change(200), change(200), change(300), change(300));
        assertThat(plan.plan(b)).containsExactly(b.get(0), b.get(1), b.get(2), b.get(2), b.get(2));
    }

    @Test
    void theGroupIsStoredWithItsOwnOffsetOnceTheNextBatchStartsAtAnotherLsn() {
        ResumeSafeOffsets plan = new ResumeSafeOffsets();
        List<Map<String, ?>> first = batch(change(100), change(300), change(300));
        plan.plan(first);
        // the next batch starts at 300 too: still unknown whether the group ended, still the offset of 100
        List<Map<String, ?>> second = batch(change(300), change(300));
        assertThat(plan.plan(second)).containsExactly(first.get(0), first.get(0));
        // a one-record batch at another LSN: the 300 group is complete, and the new record's group is the new tail
        List<Map<String, ?>> third = batch(change(400));
        assertThat(plan.plan(third)).containsExactly(second.get(1));
        List<Map<String, ?>> fourth = batch(change(500), change(600));
        assertThat(plan.plan(fourth)).containsExactly(fourth.get(0), fourth.get(0));
    }

    @Test
    void aGroupContinuedFromTheLastBatchAndEndedInThisOneKeepsItsOwnOffset() {
        ResumeSafeOffsets plan = new ResumeSafeOffsets();
        plan.plan(batch(change(100), change(200)));
        List<Map<String, ?>> b = batch(change(200), change(200), change(250), change(300));
        assertThat(plan.plan(b)).containsExactly(b.get(0), b.get(1), b.get(2), b.get(2));
    }

    @Test
    void withNoCompleteGroupKnownInThisRunTheTrailingGroupIsNotMarked() {
        ResumeSafeOffsets plan = new ResumeSafeOffsets();
        assertThat(plan.plan(batch(change(200), change(200)))).containsExactly(null, null);
        assertThat(plan.plan(batch(change(200)))).containsExactly((Map<String, ?>) null);
    }

    @Test
    void snapshotRecordsAndMarkersKeepTheirOwnOffsetsAndEndTheGroupBeforeThem() {
        ResumeSafeOffsets plan = new ResumeSafeOffsets();
        List<Map<String, ?>> reads = batch(snapshotRead(50), snapshotRead(50), snapshotRead(50));
        assertThat(plan.plan(reads)).containsExactlyElementsOf(reads);
        List<Map<String, ?>> b = batch(change(200), marker(210));
        assertThat(plan.plan(b)).containsExactlyElementsOf(b);
        List<Map<String, ?>> c = batch(change(300));
        assertThat(plan.plan(c)).containsExactly(b.get(1));
    }

    @Test
    void aDeleteAndItsTombstoneShareOneLsnAndFormAGroup() {
        ResumeSafeOffsets plan = new ResumeSafeOffsets();
        Map<String, ?> delete = new HashMap<>(Map.of("lsn", 200L, "lsn_proc", 200L, "messageType", "DELETE"));
        List<Map<String, ?>> b = batch(change(100), delete);
        assertThat(plan.plan(b)).containsExactly(b.get(0), b.get(0));
        List<Map<String, ?>> tombstone = batch(delete, change(300));
        assertThat(plan.plan(tombstone)).containsExactly(delete, delete);
    }

    @Test
    void onlyStreamedRowChangesFormGroups() {
        assertThat(ResumeSafeOffsets.groupLsn(change(5))).isEqualTo(5L);
        assertThat(ResumeSafeOffsets.groupLsn(Map.of("lsn", 5L, "messageType", "UPDATE"))).isEqualTo(5L);
        assertThat(ResumeSafeOffsets.groupLsn(marker(5))).isNull();
        assertThat(ResumeSafeOffsets.groupLsn(snapshotRead(5))).isNull();
        assertThat(ResumeSafeOffsets.groupLsn(Map.of("lsn", 5L, "messageType", "INSERT", "snapshot", "INITIAL", "snapshot_completed", true)))
                .isEqualTo(5L);
        assertThat(ResumeSafeOffsets.groupLsn(null)).isNull();
    }
}
