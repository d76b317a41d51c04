package dev.tidemark.connector.watermark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class CursorValueTest {

    @Test
    void renderingsSortAsTextInCursorOrder() {
        List<CursorValue> values = List.of(
                new CursorValue(new Mark.Zoned(Instant.parse("1999-12-31T23:59:59.999999Z")), 5L),
                new CursorValue(new Mark.Zoned(Instant.parse("2024-05-01T10:00:00.5Z")), 9L),
                new CursorValue(new Mark.Zoned(Instant.parse("2024-05-01T10:00:00.5Z")), 10L),
                new CursorValue(new Mark.Zoned(Instant.parse("2024-05-01T10:00:00.500001Z")), 1L));
        assertSortsLikeRendering(values);
        assertThat(values.get(2).render()).isEqualTo("2024-05-01T10:00:00.500000000Z|00000000000000000010");
    }

    @Test
    void idsIncludingNegativesSortAsText() {
        List<CursorValue> ids = new ArrayList<>();
        for (long v : new long[] {Long.MIN_VALUE, -1000, -1, 0, 1, 9, 10, 1_000_000, Long.MAX_VALUE}) {
            ids.add(CursorValue.of(new Mark.Number(v)));
        }
        assertSortsLikeRendering(ids);
        assertThat(CursorValue.of(new Mark.Number(414)).render()).isEqualTo("00000000000000000414");
    }

    private static void assertSortsLikeRendering(List<CursorValue> values) {
        List<CursorValue> byValue = values.stream().sorted().toList();
        List<CursorValue> byText = values.stream().sorted(Comparator.comparing(CursorValue::render)).toList();
        assertThat(byText).isEqualTo(byValue).isEqualTo(values);
    }

    @Test
    void everyKindRoundTripsThroughItsSerialisation() {
        for (CursorValue v : List.of(
                CursorValue.of(new Mark.Zoned(Instant.parse("2024-05-01T10:00:00.123456789Z"))),
                new CursorValue(new Mark.Local(LocalDateTime.parse("2013-12-22T00:00:00")), 412L),
                CursorValue.of(new Mark.Day(LocalDate.parse("2013-06-01"))),
                CursorValue.of(new Mark.Number(-7)),
                CursorValue.of(new Mark.Text("2013-12-22 00:00:00")),
                CursorValue.of(new Mark.Text("odd|text: with separators")))) {
            assertThat(CursorValue.deserialize(v.serialize())).isEqualTo(v);
        }
    }

    @Test
    void aNullTieBreakCoversEveryIdAtItsTimestamp() {
        Mark t = new Mark.Local(LocalDateTime.parse("2024-01-01T00:00:00"));
        assertThat(CursorValue.of(t)).isGreaterThan(new CursorValue(t, Long.MAX_VALUE));
        assertThat(new CursorValue(t, 3L)).isLessThan(new CursorValue(t, 4L));
    }

    @Test
    void sqliteTextMovesDownInItsOwnShape() {
        assertThat(new Mark.Text("2013-12-22 00:00:00").minus(Duration.ofDays(365))).isEqualTo(new Mark.Text("2012-12-22 00:00:00"));
        assertThat(new Mark.Text("2024-05-01T10:00:00.123Z").minus(Duration.ofMillis(1))).isEqualTo(new Mark.Text("2024-05-01T10:00:00.122Z"));
        assertThat(new Mark.Text("2024-05-01").minus(Duration.ofHours(1))).as("whole days, rounded up").isEqualTo(new Mark.Text("2024-04-30"));
        assertThat(new Mark.Text("2024-05-01 10:00").minus(Duration.ofSeconds(30))).as("truncated down to the shape")
                .isEqualTo(new Mark.Text("2024-05-01 09:59"));
        assertThat(new Mark.Text("2013-12-22 00:00:00").render()).isEqualTo("2013-12-22T00:00:00.000000000");
        assertThat(new Mark.Text("2013-12-22T00:00:00+02:00").render()).isEqualTo("2013-12-21T22:00:00.000000000Z");
    }

    @Test
    void latenessIsTheDistanceBelowTheWatermark() {
        assertThat(new Mark.Text("2013-12-22 00:00:00").durationAbove(new Mark.Text("2013-06-01 00:00:00"))).contains(Duration.ofDays(204));
        assertThat(new Mark.Day(LocalDate.parse("2013-12-22")).durationAbove(new Mark.Day(LocalDate.parse("2013-06-01")))).contains(Duration.ofDays(204));
        assertThat(new Mark.Number(10).durationAbove(new Mark.Number(3))).isEmpty();
    }

    @Test
    void idsDoNotMoveByDurationsAndKindsDoNotMix() {
        assertThatThrownBy(() -> new Mark.Number(5).minus(Duration.ofDays(1))).hasMessageContaining("count of ids");
        assertThatThrownBy(() -> new Mark.Number(5).compareTo(new Mark.Text("5"))).hasMessageContaining("different kinds");
        assertThat(new Mark.Number(Long.MIN_VALUE + 1).minus(5)).isEqualTo(new Mark.Number(Long.MIN_VALUE));
    }
}
