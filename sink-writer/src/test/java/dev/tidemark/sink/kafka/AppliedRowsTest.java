package dev.tidemark.sink.kafka;

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

class AppliedRowsTest {
    static final TableId T = new TableId("public", "t");
    static final RowSchema SCHEMA = new RowSchema(List.of(new Column("id", ColumnType.of("bytes"), false)), List.of("id"));

    private static ChangeEvent upsert(Object id) {
        return new ChangeEvent.Upsert(T, Map.of("id", id), SCHEMA, Map.of("id", id), new SourcePosition.Unknown(), ChangeEvent.Op.READ);
    }

    private static ChangeEvent delete(Object id) {
        return new ChangeEvent.Delete(T, Map.of("id", id), new SourcePosition.Unknown(), false);
    }

    @Test
    void aKeyWhoseLastAppliedRecordIsAnUpsertIsARowTheTargetMustHold() {
        assertThat(AppliedRows.leaveARow(List.of(upsert(1), upsert(2), delete(1)))).isTrue();
        assertThat(AppliedRows.leaveARow(List.of(delete(1), upsert(1)))).as("inserted again after its delete").isTrue();
    }

    @Test
    void rowsAllDeletedOrTruncatedLeaveNone() {
        assertThat(AppliedRows.leaveARow(List.of(upsert(1), upsert(2), delete(2), delete(1)))).isFalse();
        assertThat(AppliedRows.leaveARow(List.of(upsert(1), new ChangeEvent.Truncate(T, new SourcePosition.Unknown())))).isFalse();
        assertThat(AppliedRows.leaveARow(List.of(delete(7)))).as("a delete of a row applied before the window").isFalse();
        assertThat(AppliedRows.leaveARow(List.of())).isFalse();
    }

    @Test
    void aSnapshotsSweepRemovesOnlyTheRowsOlderThanTheSnapshot() {
        SourcePosition snapshot = new SourcePosition.Wal(2000, SourcePosition.Phase.SNAPSHOT, 0);
        ChangeEvent sweep = new ChangeEvent.Truncate(T, snapshot, true);
        assertThat(AppliedRows.leaveARow(List.of(upsertAt(1, snapshot), upsertAt(2, snapshot), sweep)))
                .as("the snapshot's own rows stay after its sweep").isTrue();
        assertThat(AppliedRows.leaveARow(List.of(upsertAt(1, new SourcePosition.Wal(1000, SourcePosition.Phase.STREAM, 0)), sweep)))
                .as("a row written before the snapshot and not read by it goes").isFalse();
        assertThat(AppliedRows.leaveARow(List.of(upsertAt(1, snapshot), new ChangeEvent.Truncate(T, new SourcePosition.Wal(3000,
                SourcePosition.Phase.STREAM, 0))))).as("a source truncate after it removes it").isFalse();
    }

    private static ChangeEvent upsertAt(Object id, SourcePosition at) {
        return new ChangeEvent.Upsert(T, Map.of("id", id), SCHEMA, Map.of("id", id), at, ChangeEvent.Op.READ);
    }

    @Test
    void byteArrayKeysDecodedTwiceAreOneKey() {
        assertThat(AppliedRows.leaveARow(List.of(upsert(new byte[] {1, 2}), delete(new byte[] {1, 2})))).isFalse();
    }
}
