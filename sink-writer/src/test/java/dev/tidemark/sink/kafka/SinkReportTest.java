package dev.tidemark.sink.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sink's per-table "applied" figure counts the source's row changes, never the control records between them. */
class SinkReportTest {
    static final TableId T = new TableId("public", "items");
    static final RowSchema S = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false)), List.of("id"));

    @Test
    void appliedCountsRowChangesNeverASnapshotSweepASchemaChangeOrATombstone() {
        Map<TableId, Long> applied = new LinkedHashMap<>();
        SinkMetrics metrics = new SinkMetrics() {
            @Override
            public void applied(TableId table, long events) {
                applied.merge(table, events, Long::sum);
            }
        };
        SourcePosition at = new SourcePosition.Lsn(10);
        SinkReport.applied(metrics, List.of(
                new ChangeEvent.Upsert(T, Map.of("id", 1L), S, Map.of("id", 1L), at, ChangeEvent.Op.CREATE),
                new ChangeEvent.Delete(T, Map.of("id", 1L), at, false),
                new ChangeEvent.Delete(T, Map.of("id", 1L), at, true),
                new ChangeEvent.Truncate(T, at),
                new ChangeEvent.Truncate(T, at, true),
                new ChangeEvent.SchemaChange(T, at, List.of(), "ALTER TABLE items ADD COLUMN note text")), 1_000);
        assertThat(applied).as("an insert, a delete and a source truncate").containsExactly(entry(T, 3L));
    }

    @Test
    void onlyTheSourcesRowChangesAreChanges() {
        SourcePosition at = new SourcePosition.Lsn(10);
        assertThat(SinkReport.isRowChange(new ChangeEvent.Truncate(T, at))).as("a truncate the source made").isTrue();
        assertThat(SinkReport.isRowChange(new ChangeEvent.Truncate(T, at, true))).as("capture's snapshot sweep").isFalse();
        assertThat(SinkReport.isRowChange(new ChangeEvent.Delete(T, Map.of("id", 1L), at, false))).as("a delete").isTrue();
        assertThat(SinkReport.isRowChange(new ChangeEvent.Delete(T, Map.of("id", 1L), at, true))).as("a tombstone").isFalse();
        assertThat(SinkReport.isRowChange(new ChangeEvent.SchemaChange(T, at, List.of(), ""))).as("a schema change").isFalse();
    }
}
