package dev.tidemark.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PoisonEventExceptionTest {
    private static final EventOrigin ORIGIN = new EventOrigin("tm.public.orders", 2, 41, "{\"id\":7}".getBytes(StandardCharsets.UTF_8));

    @Test
    void theMessageNamesTheOriginAndTheReasonIsKeptApart() {
        PoisonEventException e = new PoisonEventException(ORIGIN, "envelope has no 'op'", null);

        assertThat(e.getMessage()).isEqualTo(ORIGIN.describe() + ": envelope has no 'op'");
        assertThat(e.reason()).isEqualTo("envelope has no 'op'");
        assertThat(e.origin()).isSameAs(ORIGIN);
    }

    @Test
    void aMissingReasonIsNeverNull() {
        assertThat(new PoisonEventException(ORIGIN, null, null).reason()).isEqualTo("null");
    }
}
