package dev.tidemark.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IsoInstantTest {

    @Test
    void agreesWithInstantParseOnRandomInstantsAtEveryFractionLength() {
        Random random = new Random(5);
        for (int i = 0; i < 200_000; i++) {
            long seconds = random.nextLong(-62_135_596_800L, 253_402_300_799L); // years 0001..9999
            Instant instant = Instant.ofEpochSecond(seconds, random.nextInt(1_000_000_000));
            String text = instant.toString();
            int digits = random.nextInt(10);
            String trimmed = text.length() > 21
                    ? text.substring(0, 19) + (digits == 0 ? "" : "." + text.substring(20, Math.min(20 + digits, text.length() - 1))) + "Z"
                    : text;
            assertThat(IsoInstant.parse(trimmed)).as(trimmed).isEqualTo(Instant.parse(trimmed));
        }
    }

    @Test
    void edgeCasesBehaveExactlyAsInstantParse() {
        for (String s : new String[] {"2024-02-29T23:59:59.999999999Z", "1970-01-01T00:00:00Z", "2023-12-31T23:59:60Z",
                "2024-05-01T10:15:30+02:00", "+12024-05-01T10:15:30Z", "2024-05-01T10:15:30.5Z", "0000-01-01T00:00:00Z",
                "2024-05-01T10:15:30.Z", "2024-05-01T24:00:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z",
                "2024-05-01T10:15:3xZ", "2024-05-01 10:15:30Z", "2024-04-31T00:00:00Z", "2024-05-01T10:60:00Z"}) {
            assertThat(outcome(() -> IsoInstant.parse(s))).as(s).isEqualTo(outcome(() -> Instant.parse(s)));
        }
        assertThatThrownBy(() -> IsoInstant.parse("2023-02-29T00:00:00Z")).isInstanceOf(DateTimeParseException.class);
        assertThatThrownBy(() -> IsoInstant.parse("2024-05-01T10:15:3xZ")).isInstanceOf(DateTimeParseException.class);
    }

    private static Object outcome(java.util.function.Supplier<Instant> parse) {
        try {
            return parse.get();
        } catch (DateTimeParseException e) {
            return DateTimeParseException.class;
        }
    }
}
