package dev.tidemark.sink.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplayFromTest {
    @Test
    void parsesEveryForm() {
        assertThat(ReplayFrom.parse("earliest")).isEqualTo(new ReplayFrom.Earliest());
        assertThat(ReplayFrom.parse("stored")).isEqualTo(new ReplayFrom.Stored());
        assertThat(ReplayFrom.parse("0:15,2:7")).isEqualTo(new ReplayFrom.Offsets(Map.of("0", 15L, "2", 7L)));
        assertThat(ReplayFrom.parse("shop.public.orders:1:42")).isEqualTo(new ReplayFrom.Offsets(Map.of("shop.public.orders:1", 42L)));
        assertThat(ReplayFrom.parse("2026-11-29T10:00:00Z")).isEqualTo(new ReplayFrom.Since(Instant.parse("2026-11-29T10:00:00Z")));
    }

    @Test
    void rejectsBadInputNamingThePart() {
        assertThatThrownBy(() -> ReplayFrom.parse("0:abc")).hasMessage("--replay-from: '0:abc' needs a numeric partition and a non-negative offset");
        assertThatThrownBy(() -> ReplayFrom.parse("yesterday")).hasMessage("--replay-from: 'yesterday' is not partition:offset or topic:partition:offset");
        assertThatThrownBy(() -> ReplayFrom.parse("2026-13-01T00:00:00Z")).hasMessageContaining("is not an ISO-8601 instant");
        assertThatThrownBy(() -> ReplayFrom.parse("0:-5")).hasMessageContaining("non-negative offset");
    }

    @Test
    void printsAsTheUserWritesItNeverAsARecord() {
        for (String given : new String[] {"earliest", "0:15,2:7", "shop.public.orders:1:42", "2026-11-29T10:00:00Z"}) {
            assertThat(ReplayFrom.parse(given).toString()).isEqualTo(given);
        }
        assertThat(new ReplayFrom.Stored().toString()).isEqualTo("the stored offsets").doesNotContain("[");
    }
}
