package dev.tidemark.sink.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.sink.event.ChangeEvent;
import dev.tidemark.sink.event.Column;
import dev.tidemark.sink.event.ColumnType;
import dev.tidemark.sink.event.RowSchema;
import dev.tidemark.sink.event.SourcePosition;
import dev.tidemark.sink.event.TableId;
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
    void truncateSplitsTheBatchInOrder() {
        ChangeEvent.Truncate tr = new ChangeEvent.Truncate(T, new SourcePosition.Lsn(5));
        List<BatchPlan.Step> plan = BatchPlan.of(List.of(upsert(1, "a", 1), tr, upsert(1, "b", 6)));
        assertThat(plan).containsExactly(new BatchPlan.Changes(List.of(upsert(1, "a", 1))), new BatchPlan.Truncation(tr),
                new BatchPlan.Changes(List.of(upsert(1, "b", 6))));
    }
}
