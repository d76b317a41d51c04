package dev.tidemark.connector.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.CursorValue;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LatenessTrackerTest {
    static final TableId ORDERS = new TableId("s", "orders");
    static final RowSchema SCHEMA = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false)), List.of("id"));

    /** Target positions by key id; absent = the target never saw the row. */
    final Map<Long, SourcePosition> target = new HashMap<>();
    final List<Object> lookedUp = new ArrayList<>();
    final LatenessTracker.StoredPositions fake = u -> {
        lookedUp.add(u.key().get("id"));
        return Optional.ofNullable(target.get((Long) u.key().get("id")));
    };

    static Watermark at(String t) {
        return Watermark.of(new CursorValue.Local(LocalDateTime.parse(t)));
    }

    /** The position the sink stores for a row written at {@code w}. */
    static SourcePosition stored(Watermark w) {
        return new SourcePosition.Watermark(w.render());
    }

    static ChangeEvent.Upsert row(long id, Watermark position) {
        return new ChangeEvent.Upsert(ORDERS, Map.of("id", id), SCHEMA, Map.of("id", id),
                new SourcePosition.Watermark(position.render()), ChangeEvent.Op.READ);
    }

    static WindowPlan.Copy incremental(Watermark previous, Watermark upper) {
        return new WindowPlan.Copy(RunKind.INCREMENTAL, Window.incremental(previous, upper), previous, upper, null, 0);
    }

    @Test
    void rowsBelowThePreviousWatermarkThatTheTargetNeverSaw_areLate() throws Exception {
        Watermark previous = at("2024-01-10T00:00");
        LatenessTracker tracker = LatenessTracker.of(incremental(previous, at("2024-01-11T00:00")), fake);
        target.put(2L, stored(at("2024-01-05T00:00"))); // copied before at this very position: not late
        target.put(3L, stored(at("2024-01-01T00:00"))); // copied before at an older position: updated late
        tracker.observe(row(1, at("2024-01-08T00:00")), at("2024-01-08T00:00"));
        tracker.observe(row(2, at("2024-01-05T00:00")), at("2024-01-05T00:00"));
        tracker.observe(row(3, at("2024-01-06T00:00")), at("2024-01-06T00:00"));
        tracker.observe(row(4, at("2024-01-10T12:00")), at("2024-01-10T12:00"));
        assertThat(lookedUp).as("nothing is looked up while the chunk is read").isEmpty();
        tracker.lookUpChunk();
        assertThat(lookedUp).as("only rows at or below the previous watermark").containsExactly(1L, 2L, 3L);
        assertThat(tracker.lateRows()).isEqualTo(2);
        assertThat(tracker.maxLateness()).isEqualTo("4d");

        tracker.lookUpChunk();
        assertThat(lookedUp).as("each chunk's candidates are looked up once").hasSize(3);
    }

    @Test
    void idCursors_measureLatenessInIds() throws Exception {
        Watermark previous = Watermark.of(new CursorValue.Number(100));
        LatenessTracker tracker = LatenessTracker.of(incremental(previous, Watermark.of(new CursorValue.Number(120))), fake);
        tracker.observe(row(88, Watermark.of(new CursorValue.Number(88))), Watermark.of(new CursorValue.Number(88)));
        tracker.observe(row(97, Watermark.of(new CursorValue.Number(97))), Watermark.of(new CursorValue.Number(97)));
        tracker.lookUpChunk();
        assertThat(tracker.lateRows()).isEqualTo(2);
        assertThat(tracker.maxLateness()).isEqualTo("12 ids");
    }

    @Test
    void firstLoads_tumblingWindows_andKafkaMode_trackNothing() throws Exception {
        Watermark upper = at("2024-01-11T00:00");
        List<LatenessTracker> off = List.of(
                LatenessTracker.of(new WindowPlan.Copy(RunKind.INITIAL, Window.incremental(null, upper), null, upper, null, 0), fake),
                LatenessTracker.of(new WindowPlan.Copy(RunKind.WINDOW, Window.tumbling(at("2024-01-01T00:00"), upper), null, null, null, 0), fake),
                LatenessTracker.of(incremental(at("2024-01-10T00:00"), upper), null),
                LatenessTracker.off());
        for (LatenessTracker t : off) {
            t.observe(row(1, at("2023-01-01T00:00")), at("2023-01-01T00:00"));
            t.lookUpChunk();
            assertThat(t.lateRows()).isZero();
            assertThat(t.maxLateness()).isNull();
        }
        assertThat(lookedUp).isEmpty();
    }

    @Test
    void warning_namesTheOverlapThatCatchesThem() {
        WatermarkTable t = WatermarkTable.of(ORDERS, List.of("id"), new Cursor.Timestamp("ts")).withOverlap(Duration.ofDays(1));
        assertThat(LatenessTracker.warning(t, 0, null)).isEmpty();
        assertThat(LatenessTracker.warning(t, 2, "4d")).contains("table s.orders: observed lateness: 2 rows were first seen below "
                + "the previous watermark (inside the overlap), up to 4d late; an overlap of at least 4d catches rows that late "
                + "(current overlap 1d); rows later than the overlap are never seen: run reconcile to find them");
        WatermarkTable ids = WatermarkTable.of(ORDERS, List.of("id"), new Cursor.Id("id")).withIdOverlap(5);
        assertThat(LatenessTracker.warning(ids, 1, "12 ids")).hasValueSatisfying(w -> assertThat(w)
                .contains("1 row was first seen").contains("(current overlap 5 ids)"));
    }

    /** A row read by run {@code run} at {@code position}, as the poller positions it now. */
    static ChangeEvent.Upsert rowOfRun(long id, Watermark position, long run) {
        return new ChangeEvent.Upsert(ORDERS, Map.of("id", id), SCHEMA, Map.of("id", id),
                new SourcePosition.Watermark(position.render(), run), ChangeEvent.Op.READ);
    }

    @Test
    void rowsReReadBelowTheValueTheTargetHolds_movedBackwards_andAreNotLate() throws Exception {
        Watermark previous = at("2026-11-01T01:59");
        LatenessTracker tracker = LatenessTracker.of(incremental(previous, at("2026-11-01T02:30")), fake);
        target.put(1L, new SourcePosition.Watermark(at("2026-11-01T01:50").render(), 4L)); // copied at 01:50 by run 4
        target.put(2L, new SourcePosition.Watermark(at("2026-11-01T01:20").render(), 4L)); // same value: seen
        target.put(3L, new SourcePosition.After(stored(at("2026-11-01T01:45")))); // repaired, version 1 position
        target.put(4L, new SourcePosition.Lsn(7)); // captured since: neither late nor moved back
        tracker.observe(rowOfRun(1, at("2026-11-01T01:10"), 5), at("2026-11-01T01:10"));
        tracker.observe(rowOfRun(2, at("2026-11-01T01:20"), 5), at("2026-11-01T01:20"));
        tracker.observe(rowOfRun(3, at("2026-11-01T01:15"), 5), at("2026-11-01T01:15"));
        tracker.observe(rowOfRun(4, at("2026-11-01T01:15"), 5), at("2026-11-01T01:15"));
        tracker.lookUpChunk();
        assertThat(tracker.movedBackRows()).isEqualTo(2);
        assertThat(tracker.lateRows()).as("runs are not compared: a re-read of the same value is not late").isZero();
    }

    @Test
    void theMovedBackWarningSaysHowManyAndWhatToDo() {
        WatermarkTable t = WatermarkTable.of(ORDERS, List.of("id"), new Cursor.Timestamp("updated"));
        assertThat(LatenessTracker.movedBackWarning(t, 0)).isEmpty();
        assertThat(LatenessTracker.movedBackWarning(t, 1)).get().asString()
                .contains("s.orders: 1 row's cursor moved backwards").contains("run reconcile");
        assertThat(LatenessTracker.movedBackWarning(t, 3)).get().asString().contains("3 rows' cursor moved backwards");
    }
}
