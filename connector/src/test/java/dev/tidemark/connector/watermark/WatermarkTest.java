package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.CursorValue;

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

class WatermarkTest {

    @Test
    void renderingsSortAsTextInCursorOrder() {
        List<Watermark> values = List.of(
                new Watermark(new CursorValue.Zoned(Instant.parse("1999-12-31T23:59:59.999999Z")), 5L),
                new Watermark(new CursorValue.Zoned(Instant.parse("2024-05-01T10:00:00.5Z")), 9L),
                new Watermark(new CursorValue.Zoned(Instant.parse("2024-05-01T10:00:00.5Z")), 10L),
                new Watermark(new CursorValue.Zoned(Instant.parse("2024-05-01T10:00:00.500001Z")), 1L));
        assertSortsLikeRendering(values);
        assertThat(values.get(2).render()).isEqualTo("2024-05-01T10:00:00.500000000Z|00000000000000000010");
    }

    @Test
    void idsIncludingNegativesSortAsText() {
        List<Watermark> ids = new ArrayList<>();
        for (long v : new long[] {Long.MIN_VALUE, -1000, -1, 0, 1, 9, 10, 1_000_000, Long.MAX_VALUE}) {
            ids.add(Watermark.of(new CursorValue.Number(v)));
        }
        assertSortsLikeRendering(ids);
        assertThat(Watermark.of(new CursorValue.Number(414)).render()).isEqualTo("00000000000000000414");
    }

    private static void assertSortsLikeRendering(List<Watermark> values) {
        List<Watermark> byValue = values.stream().sorted().toList();
        List<Watermark> byText = values.stream().sorted(Comparator.comparing(Watermark::render)).toList();
        assertThat(byText).isEqualTo(byValue).isEqualTo(values);
    }

    @Test
    void everyKindRoundTripsThroughItsSerialisation() {
        for (Watermark v : List.of(
                Watermark.of(new CursorValue.Zoned(Instant.parse("2024-05-01T10:00:00.123456789Z"))),
                new Watermark(new CursorValue.Local(LocalDateTime.parse("2013-12-22T00:00:00")), 412L),
                Watermark.of(new CursorValue.Day(LocalDate.parse("2013-06-01"))),
                Watermark.of(new CursorValue.Number(-7)),
                Watermark.of(new CursorValue.Text("2013-12-22 00:00:00")),
                Watermark.of(new CursorValue.Text("odd|text: with separators")))) {
            assertThat(Watermark.deserialize(v.serialize())).isEqualTo(v);
        }
    }

    @Test
    void aNullTieBreakCoversEveryIdAtItsTimestamp() {
        CursorValue t = new CursorValue.Local(LocalDateTime.parse("2024-01-01T00:00:00"));
        assertThat(Watermark.of(t)).isGreaterThan(new Watermark(t, Long.MAX_VALUE));
        assertThat(new Watermark(t, 3L)).isLessThan(new Watermark(t, 4L));
    }

    @Test
    void sqliteTextMovesDownInItsOwnShape() {
        assertThat(new CursorValue.Text("2013-12-22 00:00:00").minus(Duration.ofDays(365))).isEqualTo(new CursorValue.Text("2012-12-22 00:00:00"));
        assertThat(new CursorValue.Text("2024-05-01T10:00:00.123Z").minus(Duration.ofMillis(1))).isEqualTo(new CursorValue.Text("2024-05-01T10:00:00.122Z"));
        assertThat(new CursorValue.Text("2024-05-01").minus(Duration.ofHours(1))).as("whole days, rounded up").isEqualTo(new CursorValue.Text("2024-04-30"));
        assertThat(new CursorValue.Text("2024-05-01 10:00").minus(Duration.ofSeconds(30))).as("truncated down to the shape")
                .isEqualTo(new CursorValue.Text("2024-05-01 09:59"));
        assertThat(new CursorValue.Text("2013-12-22 00:00:00").render()).isEqualTo("2013-12-22T00:00:00.000000000");
        assertThat(new CursorValue.Text("2013-12-22T00:00:00+02:00").render()).isEqualTo("2013-12-21T22:00:00.000000000Z");
    }

    @Test
    void latenessIsTheDistanceBelowTheWatermark() {
        assertThat(new CursorValue.Text("2013-12-22 00:00:00").durationAbove(new CursorValue.Text("2013-06-01 00:00:00"))).contains(Duration.ofDays(204));
        assertThat(new CursorValue.Day(LocalDate.parse("2013-12-22")).durationAbove(new CursorValue.Day(LocalDate.parse("2013-06-01")))).contains(Duration.ofDays(204));
        assertThat(new CursorValue.Number(10).durationAbove(new CursorValue.Number(3))).isEmpty();
    }

    @Test
    void idsDoNotMoveByDurationsAndKindsDoNotMix() {
        assertThatThrownBy(() -> new CursorValue.Number(5).minus(Duration.ofDays(1))).hasMessageContaining("count of ids");
        assertThatThrownBy(() -> new CursorValue.Number(5).compareTo(new CursorValue.Text("5"))).hasMessageContaining("different kinds");
        assertThat(new CursorValue.Number(Long.MIN_VALUE + 1).minus(5)).isEqualTo(new CursorValue.Number(Long.MIN_VALUE));
    }
}
