package dev.tidemark.sink.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchPlanTest {
    static final TableId T = new TableId("public", "t");
    static final RowSchema SCHEMA = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false),
            new Column("v", ColumnType.of("string"), true)), List.of("id"));

    static ChangeEvent.Upsert upsert(long id, String v, long lsn) {
        return new ChangeEvent.Upsert(T, Map.of("id", id), SCHEMA, Map.of("id", id, "v", v), new SourcePosition.Lsn(lsn), ChangeEvent.Op.CREATE);
    }

    static ChangeEvent.Delete delete(long id, long lsn) {
        return new ChangeEvent.Delete(T, Map.of("id", id), new SourcePosition.Lsn(lsn), false);
    }

    @Test
    void updateDeleteInsertOfOneKeyEndsAsTheInsert() {
        List<BatchPlan.Step> plan = BatchPlan.of(List.of(upsert(1, "a", 1), upsert(2, "b", 2), delete(1, 3), upsert(1, "c", 4)));
        assertThat(plan).hasSize(1);
        List<ChangeEvent> events = ((BatchPlan.Changes) plan.get(0)).events();
        assertThat(events).containsExactly(upsert(1, "c", 4), upsert(2, "b", 2));
    }

    @Test
    void tombstoneAfterDeleteKeepsTheDeletePosition() {
        ChangeEvent.Delete tomb = new ChangeEvent.Delete(T, Map.of("id", 1L), new SourcePosition.Unknown(), true);
        List<BatchPlan.Step> plan = BatchPlan.of(List.of(upsert(1, "a", 1), delete(1, 3), tomb));
        assertThat(((BatchPlan.Changes) plan.get(0)).events()).containsExactly(delete(1, 3));
    }

    @Test
    void tombstonesNeverReachTheTargetTheDeleteBeforeThemCarriesIt() {
        ChangeEvent.Delete tomb = new ChangeEvent.Delete(T, Map.of("id", 1L), new SourcePosition.Unknown(), true);
        assertThat(BatchPlan.of(List.of(tomb))).isEmpty();
        // a tombstone after a newer insert (its key moved partitions, or a replay) must not delete that insert
        List<BatchPlan.Step> plan = BatchPlan.of(List.of(upsert(1, "new", 9), delete(1, 3), tomb));
        assertThat(((BatchPlan.Changes) plan.get(0)).events()).containsExactly(upsert(1, "new", 9));
    }

    @Test
    void changesOlderThanTheTablesTruncateAreDropped() {
        SourcePosition truncatedAt = new SourcePosition.Lsn(5);
        List<BatchPlan.Step> plan = BatchPlan.of(List.of(upsert(1, "old", 4), upsert(2, "new", 6), delete(3, 2)),
                new BatchPlan.TableMarks(Map.of("t", truncatedAt), Map.of()));
        assertThat(plan).containsExactly(new BatchPlan.Changes(List.of(upsert(2, "new", 6))));
    }

    @Test
    void positionlessEventsAreNeitherDroppedByATruncateNorOrderedAgainstOthers() {
        ChangeEvent.Upsert unknown = upsertAt(1, "no position", new SourcePosition.Unknown());
        List<BatchPlan.Step> plan = BatchPlan.of(List.of(unknown),
                new BatchPlan.TableMarks(Map.of("t", new SourcePosition.Lsn(5)), Map.of()));
        assertThat(plan).containsExactly(new BatchPlan.Changes(List.of(unknown)));
        // the later event of a key wins by batch order when one of them has no position
        plan = BatchPlan.of(List.of(upsert(1, "positioned", 9), unknown));
        assertThat(((BatchPlan.Changes) plan.get(0)).events()).containsExactly(unknown);
        // a truncate without a position drops nothing
        ChangeEvent.Truncate blind = new ChangeEvent.Truncate(T, new SourcePosition.Unknown());
        plan = BatchPlan.of(List.of(blind, upsert(2, "b", 3)));
        assertThat(plan).containsExactly(new BatchPlan.Truncation(blind), new BatchPlan.Changes(List.of(upsert(2, "b", 3))));
    }

    @Test
    void aRememberedVersionTwoTruncateDropsOlderVersionOneChanges() {
        SourcePosition truncatedAt = SourcePosition.decode("lsn:0000000000000005:v2:2:0000000000000006");
        List<BatchPlan.Step> plan = BatchPlan.of(List.of(upsert(1, "old", 4), upsert(2, "same lsn", 5), upsert(3, "new", 6)),
                new BatchPlan.TableMarks(Map.of("t", truncatedAt), Map.of()));
        assertThat(plan).containsExactly(new BatchPlan.Changes(List.of(upsert(3, "new", 6))));
    }

    @Test
    void aTruncateInTheBatchDropsOlderChangesAfterIt() {
        ChangeEvent.Truncate tr = new ChangeEvent.Truncate(T, new SourcePosition.Lsn(5));
        // read from another partition after the truncate, but made before it
        List<BatchPlan.Step> plan = BatchPlan.of(List.of(upsert(1, "a", 7), tr, upsert(2, "b", 3), upsert(3, "c", 8)));
        assertThat(plan).containsExactly(new BatchPlan.Changes(List.of(upsert(1, "a", 7))), new BatchPlan.Truncation(tr),
                new BatchPlan.Changes(List.of(upsert(3, "c", 8))));
    }

    @Test
    void collapsingKeepsTheNewestPositionWhateverTheBatchOrder() {
        List<BatchPlan.Step> plan = BatchPlan.of(List.of(upsert(1, "newer", 9), upsert(1, "older", 4)));
        assertThat(((BatchPlan.Changes) plan.get(0)).events()).containsExactly(upsert(1, "newer", 9));
    }

    @Test
    void theFirstTransactionAfterASnapshotIsOrderedAfterItsRows() {
        SourcePosition.Wal snapshot = new SourcePosition.Wal(1000, SourcePosition.Phase.SNAPSHOT, 0);
        SourcePosition.Wal early = new SourcePosition.Wal(0, SourcePosition.Phase.FIRST, 900);
        ChangeEvent.Upsert read = upsertAt(1, "read", snapshot);
        ChangeEvent.Upsert change = upsertAt(2, "changed", early);
        SourcePosition.Wal raised = new SourcePosition.Wal(1000, SourcePosition.Phase.FIRST, 900);

        // the snapshot's rows in the same batch
        List<BatchPlan.Step> plan = BatchPlan.of(List.of(read, change));
        assertThat(((BatchPlan.Changes) plan.get(0)).events()).containsExactly(read, upsertAt(2, "changed", raised));
        // or remembered from an earlier batch
        plan = BatchPlan.of(List.of(change), new BatchPlan.TableMarks(Map.of(), Map.of("t", 1000L)));
        assertThat(((BatchPlan.Changes) plan.get(0)).events()).containsExactly(upsertAt(2, "changed", raised));
        assertThat(snapshot.compareTo(raised)).isNegative();
        // no snapshot known: the change keeps order 0
        assertThat(((BatchPlan.Changes) BatchPlan.of(List.of(change)).get(0)).events()).containsExactly(change);
    }

    static ChangeEvent.Upsert upsertAt(long id, String v, SourcePosition position) {
        return new ChangeEvent.Upsert(T, Map.of("id", id), SCHEMA, Map.of("id", id, "v", v), position, ChangeEvent.Op.CREATE);
    }

    @Test
    void truncateSplitsTheBatchInOrder() {
        ChangeEvent.Truncate tr = new ChangeEvent.Truncate(T, new SourcePosition.Lsn(5));
        List<BatchPlan.Step> plan = BatchPlan.of(List.of(upsert(1, "a", 1), tr, upsert(1, "b", 6)));
        assertThat(plan).containsExactly(new BatchPlan.Changes(List.of(upsert(1, "a", 1))), new BatchPlan.Truncation(tr),
                new BatchPlan.Changes(List.of(upsert(1, "b", 6))));
    }
}
