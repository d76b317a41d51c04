package dev.tidemark.connector.pipeline;

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
        assertThat(AppliedRows.leaveARow(List.of(upsert(1), new ChangeEvent.Truncate(T, new SourcePosition.Unknown(), true))))
                .as("a re-snapshot's sweep may have removed it").isFalse();
        assertThat(AppliedRows.leaveARow(List.of(delete(7)))).as("a delete of a row applied before the window").isFalse();
        assertThat(AppliedRows.leaveARow(List.of())).isFalse();
    }

    @Test
    void byteArrayKeysDecodedTwiceAreOneKey() {
        assertThat(AppliedRows.leaveARow(List.of(upsert(new byte[] {1, 2}), delete(new byte[] {1, 2})))).isFalse();
    }
}
