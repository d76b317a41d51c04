package dev.tidemark.connector.watermark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.ColumnKind;
import dev.tidemark.jdbc.CursorValue;
import dev.tidemark.jdbc.SourceColumn;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WindowPlannerTest {
    static final TableId ORDERS = new TableId("s", "orders");
    static final WatermarkTable BY_TIME = WatermarkTable.of(ORDERS, List.of("id"), new Cursor.Timestamp("ts"));
    static final WatermarkTable BY_ID = WatermarkTable.of(ORDERS, List.of("id"), new Cursor.Id("id")).withSettle(Duration.ZERO);
    static final WatermarkTable BY_TIME_AND_ID = WatermarkTable.of(ORDERS, List.of("id"), new Cursor.TimestampId("ts", "id"));

    static CursorValue local(String t) {
        return new CursorValue.Local(LocalDateTime.parse(t));
    }

    static Watermark at(String t) {
        return Watermark.of(local(t));
    }

    static Watermark at(String t, long id) {
        return new Watermark(local(t), id);
    }

    static Watermark id(long n) {
        return Watermark.of(new CursorValue.Number(n));
    }

    static ControlTable.State state(WatermarkTable t, Watermark stored, ControlTable.InProgress inProgress) {
        return new ControlTable.State(t.cursor().kind(), String.join(",", t.cursor().columns()), stored, inProgress);
    }

    @Test
    void firstRun_ofAnEmptyTable_readsNothingAndStoresNothing() {
        WindowPlan plan = WindowPlanner.next(BY_TIME, null, null);
        assertThat(plan).isEqualTo(new WindowPlan.Skip(RunKind.INITIAL, null, null));
    }

    @Test
    void firstRun_copiesEverythingUpToTheBound_withAProgressBar() {
        WindowPlan.Copy plan = (WindowPlan.Copy) WindowPlanner.next(BY_TIME, null, at("2024-01-02T00:00"));
        assertThat(plan.kind()).isEqualTo(RunKind.INITIAL);
        assertThat(plan.window()).isEqualTo(Window.incremental(null, at("2024-01-02T00:00")));
        assertThat(plan.window().describe()).isEqualTo("(-∞, 2024-01-02T00:00:00.000000000]");
        assertThat(plan.previous()).isNull();
        assertThat(plan.showsProgress()).isTrue();
        assertThat(plan.watermarkAfter(true)).isEqualTo(at("2024-01-02T00:00"));
        assertThat(plan.watermarkAfter(false)).as("a stopped first load keeps no watermark").isNull();
    }

    @Test
    void incremental_fromTheStoredWatermarkToTheBound() {
        WindowPlan.Copy plan = (WindowPlan.Copy) WindowPlanner.next(BY_TIME, at("2024-01-01T00:00"), at("2024-01-02T00:00"));
        assertThat(plan.kind()).isEqualTo(RunKind.INCREMENTAL);
        assertThat(plan.window()).isEqualTo(Window.incremental(at("2024-01-01T00:00"), at("2024-01-02T00:00")));
        assertThat(plan.showsProgress()).isFalse();
        assertThat(plan.tumbling()).isFalse();
        assertThat(plan.watermarkAfter(true)).isEqualTo(at("2024-01-02T00:00"));
        assertThat(plan.watermarkAfter(false)).isEqualTo(at("2024-01-01T00:00"));
    }

    @Test
    void noChange_isUnchanged_andKeepsTheWatermark() {
        Watermark stored = at("2024-01-01T00:00");
        WindowPlan plan = WindowPlanner.next(BY_TIME, stored, at("2024-01-01T00:00"));
        assertThat(plan).isEqualTo(new WindowPlan.Skip(RunKind.UNCHANGED, Window.incremental(stored, stored), stored));
    }

    @Test
    void aBoundBelowTheWatermark_neverMovesItBack() {
        Watermark stored = at("2024-01-01T00:00");
        assertThat(WindowPlanner.next(BY_TIME, stored, at("2023-12-31T23:59:55")))
                .as("a settle delay reaching behind the last run").isEqualTo(new WindowPlan.Skip(RunKind.UNCHANGED,
                        Window.incremental(stored, stored), stored));
        assertThat(WindowPlanner.next(BY_TIME, stored, null))
                .as("every row deleted since").isEqualTo(new WindowPlan.Skip(RunKind.UNCHANGED, Window.incremental(stored, stored), stored));
    }

    @Test
    void overlap_rereadsBelowTheStoredWatermark_evenWithoutNewRows() {
        WatermarkTable overlapped = BY_TIME.withOverlap(Duration.ofDays(1));
        Watermark stored = at("2024-01-02T00:00");
        WindowPlan.Copy plan = (WindowPlan.Copy) WindowPlanner.next(overlapped, stored, stored);
        assertThat(plan.kind()).isEqualTo(RunKind.INCREMENTAL);
        assertThat(plan.window()).isEqualTo(Window.incremental(at("2024-01-01T00:00"), stored));
        assertThat(plan.previous()).as("lateness is measured against the stored watermark, not the lowered bound").isEqualTo(stored);
    }

    @Test
    void idCursor_overlapIsACountOfIds() {
        WindowPlan.Copy plan = (WindowPlan.Copy) WindowPlanner.next(BY_ID.withIdOverlap(5), id(100), id(120));
        assertThat(plan.window()).isEqualTo(Window.incremental(id(95), id(120)));
        assertThat(WindowPlanner.next(BY_ID, id(100), id(100))).isInstanceOf(WindowPlan.Skip.class);
        assertThat(WindowPlanner.next(BY_ID, id(100), id(101))).isInstanceOf(WindowPlan.Copy.class);
    }

    @Test
    void timestampAndId_overlapDropsTheTieBreak() {
        WatermarkTable overlapped = BY_TIME_AND_ID.withOverlap(Duration.ofHours(1));
        assertThat(WindowPlanner.lowered(overlapped, at("2024-01-01T10:00", 414))).isEqualTo(at("2024-01-01T09:00"));
        assertThat(WindowPlanner.lowered(BY_TIME_AND_ID, at("2024-01-01T10:00", 414))).as("no overlap: the watermark itself")
                .isEqualTo(at("2024-01-01T10:00", 414));
    }

    @Test
    void timestampAndId_aLargerIdAtTheSameTimestampIsNewWork() {
        Watermark stored = at("2024-01-01T10:00", 414);
        WindowPlan.Copy plan = (WindowPlan.Copy) WindowPlanner.next(BY_TIME_AND_ID, stored, at("2024-01-01T10:00", 416));
        assertThat(plan.window()).isEqualTo(Window.incremental(stored, at("2024-01-01T10:00", 416)));
        assertThat(WindowPlanner.next(BY_TIME_AND_ID, stored, at("2024-01-01T10:00", 414))).isInstanceOf(WindowPlan.Skip.class);
    }

    @Test
    void upperBound_isTheMaximumWithItsLargestId_cutBackToTheSettledClock() {
        assertThat(WindowPlanner.upperBound(null, null, null)).isNull();
        assertThat(WindowPlanner.upperBound(local("2024-01-01T10:00"), null, null)).isEqualTo(at("2024-01-01T10:00"));
        assertThat(WindowPlanner.upperBound(local("2024-01-01T10:00"), 7L, null)).isEqualTo(at("2024-01-01T10:00", 7));
        assertThat(WindowPlanner.upperBound(local("2024-01-01T10:00"), 7L, local("2024-01-01T09:59:55")))
                .as("rows still in flight: the bound is the settled clock, covering every id").isEqualTo(at("2024-01-01T09:59:55"));
        assertThat(WindowPlanner.upperBound(local("2024-01-01T10:00"), 7L, local("2024-01-01T10:00:05")))
                .as("the maximum is older than the settle delay").isEqualTo(at("2024-01-01T10:00", 7));
    }

    @Test
    void settles_onlyTimestampCursorsWithADelay() {
        assertThat(WindowPlanner.settles(BY_TIME)).isTrue();
        assertThat(WindowPlanner.settles(BY_TIME_AND_ID)).isTrue();
        assertThat(WindowPlanner.settles(BY_TIME.withSettle(Duration.ZERO))).isFalse();
        assertThat(WindowPlanner.settles(WatermarkTable.of(ORDERS, List.of("id"), new Cursor.Id("id")))).isFalse();
    }

    @Test
    void resumedRun_finishesTheUnfinishedWindowAfterItsKey() {
        Window unfinished = Window.incremental(at("2024-01-01T00:00"), at("2024-01-02T00:00", 99));
        ControlTable.InProgress p = new ControlTable.InProgress(unfinished, "[42]", 1000);
        WindowPlan.Copy plan = WindowPlanner.resumption(Optional.of(state(BY_TIME_AND_ID, at("2024-01-01T00:00"), p))).orElseThrow();
        assertThat(plan).isEqualTo(new WindowPlan.Copy(RunKind.RESUMED, unfinished, at("2024-01-01T00:00"),
                at("2024-01-02T00:00", 99), "[42]", 1000));
        assertThat(plan.showsProgress()).isFalse();
        assertThat(plan.watermarkAfter(false)).isEqualTo(at("2024-01-01T00:00"));
    }

    @Test
    void resumedFirstLoad_showsProgressAndStoresNothingUntilComplete() {
        Window unfinished = Window.incremental(null, at("2024-01-02T00:00"));
        WindowPlan.Copy plan = WindowPlanner.resumption(Optional.of(state(BY_TIME, null,
                new ControlTable.InProgress(unfinished, "[7]", 10)))).orElseThrow();
        assertThat(plan.kind()).isEqualTo(RunKind.RESUMED);
        assertThat(plan.showsProgress()).isTrue();
        assertThat(plan.watermarkAfter(false)).isNull();
        assertThat(plan.watermarkAfter(true)).isEqualTo(at("2024-01-02T00:00"));
    }

    @Test
    void nothingToResume() {
        assertThat(WindowPlanner.resumption(Optional.empty())).isEmpty();
        assertThat(WindowPlanner.resumption(Optional.of(state(BY_TIME, at("2024-01-01T00:00"), null)))).isEmpty();
    }

    @Test
    void aStoredRowForAnotherCursor_isRejected() {
        WindowPlanner.requireSameCursor(BY_TIME, Optional.empty());
        WindowPlanner.requireSameCursor(BY_TIME, Optional.of(state(BY_TIME, at("2024-01-01T00:00"), null)));
        assertThatThrownBy(() -> WindowPlanner.requireSameCursor(BY_TIME_AND_ID, Optional.of(state(BY_TIME, at("2024-01-01T00:00"), null))))
                .hasMessageContaining("holds a timestamp watermark on ts but the settings say timestamp+id on ts,id");
        WatermarkTable otherColumn = WatermarkTable.of(ORDERS, List.of("id"), new Cursor.Timestamp("updated"));
        assertThatThrownBy(() -> WindowPlanner.requireSameCursor(otherColumn, Optional.of(state(BY_TIME, null, null))))
                .hasMessageContaining("delete its row from " + ControlTable.NAME);
    }

    @Test
    void tumblingWindow_isHalfOpen_andNeedsBothBoundsInOrder() {
        SourceColumn ts = WindowQueryTest.column("ts", ColumnKind.LOCAL);
        WindowPlan.Copy plan = WindowPlanner.tumbling("2013-01-01", "2013-07-01T00:00", ts, null, false);
        assertThat(plan.kind()).isEqualTo(RunKind.WINDOW);
        assertThat(plan.window()).isEqualTo(Window.tumbling(at("2013-01-01T00:00"), at("2013-07-01T00:00")));
        assertThat(plan.tumbling()).isTrue();
        assertThat(plan.watermarkAfter(true)).as("a tumbling window stores no watermark").isNull();
        assertThatThrownBy(() -> WindowPlanner.tumbling("2013-01-01", null, ts, null, false)).hasMessageContaining("needs both");
        assertThatThrownBy(() -> WindowPlanner.tumbling("2013-07-01", "2013-01-01", ts, null, false)).hasMessageContaining("is not before");
    }

    @Test
    void windowBounds_takeTheCursorColumnsKind() {
        assertThat(WindowPlanner.parseBound(" 42 ", WindowQueryTest.column("id", ColumnKind.INTEGER), null, false))
                .isEqualTo(new CursorValue.Number(42));
        assertThatThrownBy(() -> WindowPlanner.parseBound("x", WindowQueryTest.column("id", ColumnKind.INTEGER), null, false))
                .hasMessageContaining("is not an id");
        assertThat(WindowPlanner.parseBound("2013-01-01", WindowQueryTest.column("ts", ColumnKind.ZONED), null, false))
                .isEqualTo(new CursorValue.Zoned(Instant.parse("2013-01-01T00:00:00Z")));
        assertThat(WindowPlanner.parseBound("2013-01-01T12:00:00Z", WindowQueryTest.column("d", ColumnKind.DATE), null, false))
                .isEqualTo(new CursorValue.Day(LocalDate.parse("2013-01-01")));
        assertThatThrownBy(() -> WindowPlanner.parseBound("soon", WindowQueryTest.column("ts", ColumnKind.LOCAL), null, false))
                .hasMessageContaining("is not a date or date-time");
    }

    @Test
    void sqliteWindowBounds_areTextInTheShapeOfTheColumnsValues() {
        SourceColumn ts = WindowQueryTest.column("ts", ColumnKind.LOCAL);
        assertThat(WindowPlanner.parseBound("2013-01-01T12:00:00", ts, new CursorValue.Text("2014-05-06 07:08:09"), true))
                .isEqualTo(new CursorValue.Text("2013-01-01 12:00:00"));
        assertThat(WindowPlanner.parseBound("2013-01-01", ts, null, true)).as("no sample: the text as given")
                .isEqualTo(new CursorValue.Text("2013-01-01"));
    }
}
