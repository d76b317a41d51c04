package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import org.junit.jupiter.api.Test;

class TemporalTextTest {
    @Test
    void fixedWidthTextSortsLikeTime() {
        assertThat(TemporalText.instant(Instant.parse("2026-07-01T06:59:59.000001Z"))).isEqualTo("2026-07-01T06:59:59.000001Z");
        assertThat(TemporalText.instant(Instant.parse("1999-01-02T03:04:05Z"))).isEqualTo("1999-01-02T03:04:05.000000Z");
        assertThat(TemporalText.localDateTime(LocalDateTime.parse("0999-12-31T23:59:59.123456789"))).isEqualTo("0999-12-31T23:59:59.123456789");
        assertThat(TemporalText.localDateTime(LocalDateTime.parse("+12026-01-01T00:00:00"))).isEqualTo("+12026-01-01T00:00:00.000000");
        assertThat(TemporalText.localTime(LocalTime.parse("13:14:15.1"))).isEqualTo("13:14:15.100000");
    }

    @Test
    void lsnRenderingSortsNumerically() {
        assertThat(new dev.tidemark.event.SourcePosition.Lsn(0xabcL).encode()).isEqualTo("lsn:0000000000000abc");
        assertThat(new dev.tidemark.event.SourcePosition.Lsn(0x1_0000_0000L).encode())
                .isGreaterThan(new dev.tidemark.event.SourcePosition.Lsn(0xffff_ffffL).encode());
    }
}
