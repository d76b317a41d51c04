package dev.tidemark.connect;

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

class ResumeWindowTest {
    static final TableId A = new TableId("public", "a");
    static final TableId B = new TableId("public", "b");
    static final RowSchema SCHEMA = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false)), List.of("id"));

    private static ChangeEvent upsert(TableId t, long id) {
        return new ChangeEvent.Upsert(t, Map.of("id", id), SCHEMA, Map.of("id", id), new SourcePosition.Unknown(), ChangeEvent.Op.CREATE);
    }

    private static ChangeEvent delete(TableId t, long id) {
        return new ChangeEvent.Delete(t, Map.of("id", id), new SourcePosition.Unknown(), false);
    }

    @Test
    void theWindowIsTheThousandRecordsJustBelowTheStoredOffset() {
        ResumeWindow w = new ResumeWindow(1200);
        assertThat(w.start()).isEqualTo(200);
        assertThat(w.holds(1199)).isTrue();
        assertThat(w.holds(1200)).as("not applied yet: applied now").isFalse();
        assertThat(w.completedBy(1198)).isFalse();
        assertThat(w.completedBy(1199)).as("the record just below the stored offset").isTrue();
        assertThat(w.completedBy(1250)).as("the first record past it, where the last one was compacted away").isTrue();
        assertThat(new ResumeWindow(60).start()).as("a short topic is read from offset 0").isZero();
        assertThatThrownBy(() -> new ResumeWindow(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eachTableTheRecordsNameIsToldApartAndUndecodableRecordsProveNothing() {
        ResumeWindow w = new ResumeWindow(10);
        w.collect(upsert(A, 1));
        w.collect(upsert(B, 1));
        w.collect(null);
        w.collect(delete(B, 1));
        assertThat(w.leaveARow()).containsExactly(Map.entry(A, true), Map.entry(B, false));
    }

    @Test
    void aRestartForgetsWhatWasCollected() {
        ResumeWindow w = new ResumeWindow(10);
        w.collect(upsert(A, 1));
        w.restart();
        assertThat(w.leaveARow()).isEmpty();
    }
}
