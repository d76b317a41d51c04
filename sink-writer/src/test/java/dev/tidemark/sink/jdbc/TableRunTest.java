package dev.tidemark.sink.jdbc;

import static dev.tidemark.sink.jdbc.BatchPlanTest.SCHEMA;
import static dev.tidemark.sink.jdbc.BatchPlanTest.delete;
import static dev.tidemark.sink.jdbc.BatchPlanTest.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableRunTest {
    private static final TableId OTHER = new TableId("public", "other");

    @Test
    void upsertsGroupByTheirSchemasColumnListAndTheirUnchangedToastColumns() {
        RowSchema wider = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false),
                new Column("v", ColumnType.of("string"), true), new Column("w", ColumnType.of("string"), true)), List.of("id"));
        ChangeEvent.Upsert a = upsert(1, "a", 1);
        ChangeEvent.Upsert wide = new ChangeEvent.Upsert(BatchPlanTest.T, Map.of("id", 2L), wider, Map.of("id", 2L, "v", "b"),
                new SourcePosition.Lsn(2), ChangeEvent.Op.UPDATE);
        ChangeEvent.Upsert toast = new ChangeEvent.Upsert(BatchPlanTest.T, Map.of("id", 3L), SCHEMA, Map.of("id", 3L, "v", ChangeEvent.UNAVAILABLE),
                new SourcePosition.Lsn(3), ChangeEvent.Op.UPDATE);
        ChangeEvent.Upsert c = upsert(4, "c", 4);

        TableRun run = TableRun.of(List.of(a, wide, delete(9, 5), toast, c));

        assertThat(run.upserts()).containsExactly(List.of(a, c), List.of(wide), List.of(toast));
        assertThat(run.deletes()).containsExactly(delete(9, 5));
    }

    @Test
    void eachTargetTableGetsItsOwnRunInTheOrderTablesFirstAppear() {
        ChangeEvent.Delete gone = new ChangeEvent.Delete(OTHER, Map.of("id", 5L), new SourcePosition.Lsn(2), false);
        TargetTableNames names = new TargetTableNames(Map.of(OTHER, "renamed"));

        Map<String, TableRun> runs = TableRun.byTable(List.of(gone, upsert(1, "a", 1), delete(2, 3)), names);

        assertThat(runs.keySet()).containsExactly("renamed", "t");
        assertThat(runs.get("renamed").deletes()).containsExactly(gone);
        assertThat(runs.get("t").upserts()).containsExactly(List.of(upsert(1, "a", 1)));
        assertThat(runs.get("t").deletes()).containsExactly(delete(2, 3));
    }

    @Test
    void aTruncateIsNeverPartOfARun() {
        ChangeEvent.Truncate t = new ChangeEvent.Truncate(BatchPlanTest.T, new SourcePosition.Lsn(1));
        assertThatThrownBy(() -> TableRun.of(List.of(t))).isInstanceOf(IllegalStateException.class)
                .hasMessage("truncate inside a change run");
    }
}
