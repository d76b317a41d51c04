package dev.tidemark.sink.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.tidemark.event.EnvelopeDecoder;
import dev.tidemark.event.EventOrigin;
import dev.tidemark.event.PoisonEventException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PoisonReasonTest {
    private static final EventOrigin ORIGIN = new EventOrigin("tm.public.orders", 2, 41, "{\"id\":7}".getBytes(StandardCharsets.UTF_8));

    @Test
    void aPoisonEventsReasonLeavesOutItsOrigin() {
        PoisonEventException e = new PoisonEventException(ORIGIN, "envelope has no 'op'", null);

        assertThat(PoisonReason.of(e)).isEqualTo("envelope has no 'op'");
    }

    @Test
    void aReasonFromTheDecoderIsWhatTheDecoderSaid() {
        PoisonEventException e = catchThrowableOfType(PoisonEventException.class, () -> new EnvelopeDecoder().decode(ORIGIN,
                "{\"id\":7}".getBytes(StandardCharsets.UTF_8), "{\"payload\":{}}".getBytes(StandardCharsets.UTF_8)));

        assertThat(e.getMessage()).startsWith(ORIGIN.describe() + ": ");
        assertThat(PoisonReason.of(e)).isEqualTo(e.getMessage().substring(ORIGIN.describe().length() + 2))
                .doesNotContain(ORIGIN.describe());
    }

    @Test
    void aReasonContainingTheOriginAgainKeepsIt() {
        String reason = "again: " + ORIGIN.describe();
        assertThat(PoisonReason.of(new PoisonEventException(ORIGIN, reason, null))).isEqualTo(reason);
    }

    @Test
    void anyOtherFailureIsItsMessage() {
        assertThat(PoisonReason.of(new IllegalStateException("row rejected: value too long for column note")))
                .isEqualTo("row rejected: value too long for column note");
        assertThat(PoisonReason.of(new IllegalStateException())).isEqualTo("null");
    }
}
