package dev.tidemark.sink.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

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

class SchemaHistoryTest {
    private static final TableId T = new TableId("public", "items");
    private static final ColumnType INT = ColumnType.of("int32");
    private static final RowSchema OLD = new RowSchema(List.of(new Column("id", INT, false), new Column("k", INT, true)), List.of("id"));
    private static final SourcePosition DDL = new SourcePosition.Wal(100, SourcePosition.Phase.STREAM, 150);

    private static ChangeEvent.Upsert row(SourcePosition at) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("id", 1L);
        values.put("k", 10L);
        return new ChangeEvent.Upsert(T, Map.of("id", 1L), OLD, values, at, ChangeEvent.Op.UPDATE);
    }

    private static SchemaHistory history(ChangeEvent.ColumnChange... changes) {
        return new SchemaHistory(List.of(new ChangeEvent.SchemaChange(T, DDL, List.of(changes), "ALTER TABLE")));
    }

    @Test
    void aRowWrittenBeforeARenameTakesTheNewName() {
        ChangeEvent.Upsert adapted = history(new ChangeEvent.ColumnChange.Renamed("k", "k2")).adapt(row(new SourcePosition.Wal(90, SourcePosition.Phase.STREAM, 95)));

        assertThat(adapted.row()).containsExactly(Map.entry("id", 1L), Map.entry("k2", 10L));
        assertThat(adapted.schema().columns()).extracting(Column::name).containsExactly("id", "k2");
    }

    @Test
    void aRowWrittenBeforeAnAddGetsTheValueExistingRowsGot() {
        ChangeEvent.Upsert adapted = history(new ChangeEvent.ColumnChange.Added("c3", INT, "5")).adapt(row(new SourcePosition.Wal(0, SourcePosition.Phase.SNAPSHOT, 0)));

        assertThat(adapted.row()).containsEntry("c3", 5L);
        assertThat(adapted.schema().column("c3")).isPresent();
    }

    @Test
    void aRowWrittenBeforeARetypeLeavesTheRetypedColumnOutAndOnlyLaterRowsMayRetypeIt() {
        SchemaHistory h = history(new ChangeEvent.ColumnChange.Retyped("k", "integer", "smallint"));
        ChangeEvent.Upsert adapted = h.adapt(row(new SourcePosition.Wal(90, SourcePosition.Phase.STREAM, 95)));

        assertThat(adapted.row()).containsExactly(Map.entry("id", 1L));
        assertThat(adapted.schema().columns()).extracting(Column::name).containsExactly("id");
        assertThat(h.retypedFor(new SourcePosition.Wal(90, SourcePosition.Phase.STREAM, 95))).isEmpty();
        assertThat(h.retypedFor(new SourcePosition.Wal(100, SourcePosition.Phase.STREAM, 160))).containsExactly("k");
        assertThat(h.retypedFor(new SourcePosition.Unknown())).containsExactly("k");
    }

    @Test
    void aRowWrittenBeforeARetypeOfItsKeyIsLeftToTheSnapshotAndLaterRowsAreNot() {
        SchemaHistory h = history(new ChangeEvent.ColumnChange.Retyped("id", "integer", "bigint"));

        assertThat(h.precedesKeyRetype(row(new SourcePosition.Wal(90, SourcePosition.Phase.STREAM, 95)))).isTrue();
        assertThat(h.precedesKeyRetype(row(new SourcePosition.Wal(100, SourcePosition.Phase.STREAM, 160)))).isFalse();
        assertThat(h.precedesKeyRetype(row(new SourcePosition.Unknown()))).isFalse();
        assertThat(history(new ChangeEvent.ColumnChange.Retyped("k", "integer", "bigint"))
                .precedesKeyRetype(row(new SourcePosition.Wal(90, SourcePosition.Phase.STREAM, 95)))).isFalse();
    }

    @Test
    void aKeyColumnRenamedAndThenRetypedIsFollowedThroughTheRename() {
        SchemaHistory h = history(new ChangeEvent.ColumnChange.Renamed("id", "item_id"),
                new ChangeEvent.ColumnChange.Retyped("item_id", "integer", "text"));

        assertThat(h.precedesKeyRetype(row(new SourcePosition.Wal(90, SourcePosition.Phase.STREAM, 95)))).isTrue();
    }

    @Test
    void rowsAfterTheChangeAndRowsWithoutALogPositionStayAsTheyAre() {
        SchemaHistory h = history(new ChangeEvent.ColumnChange.Renamed("k", "k2"));
        ChangeEvent.Upsert after = row(new SourcePosition.Wal(100, SourcePosition.Phase.STREAM, 160));
        ChangeEvent.Upsert repair = row(new SourcePosition.Unknown());

        assertThat(h.adapt(after)).isSameAs(after);
        assertThat(h.adapt(repair)).isSameAs(repair);
    }

    @Test
    void rowsOfOneSchemaShareOneAdaptedSchema() {
        SchemaHistory h = history(new ChangeEvent.ColumnChange.Renamed("k", "k2"));
        SourcePosition before = new SourcePosition.Wal(90, SourcePosition.Phase.STREAM, 95);

        assertThat(h.adapt(row(before)).schema()).isSameAs(h.adapt(row(before)).schema());
    }

    @Test
    void aChangeInTheFirstTransactionAfterASnapshotFollowsEverySnapshotRow() {
        SourcePosition first = new SourcePosition.Wal(0, SourcePosition.Phase.FIRST, 500);

        assertThat(SchemaHistory.precedes(new SourcePosition.Wal(900, SourcePosition.Phase.SNAPSHOT, 0), first)).isTrue();
        assertThat(SchemaHistory.precedes(new SourcePosition.Wal(0, SourcePosition.Phase.FIRST, 400), first)).isTrue();
        assertThat(SchemaHistory.precedes(new SourcePosition.Wal(0, SourcePosition.Phase.FIRST, 600), first)).isFalse();
    }
}
