package dev.tidemark.connector.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code observability} key of the pipeline file: absent is off, a port turns it on, bad values name the key. */
class ObservabilityConfigParserTest {
    private static final String BASE = """
            name: orders
            source:
              url: jdbc:postgresql://db.example:6543/app
              tables: [public.orders]
            kafka:
              bootstrapServers: k1:9092
            target:
              url: jdbc:sqlite:/tmp/replica.db
            """;

    private static PipelineConfig parse(String extra) {
        return PipelineConfigParser.parse(BASE + extra, "test.yaml", Path.of("/etc/tidemark"), Map.<String, String>of()::get);
    }

    private static String problems(String extra) {
        return catchThrowableOfType(ConfigException.class, () -> parse(extra)).getMessage();
    }

    @Test
    void absentIsOff() {
        assertThat(parse("").observability()).isEqualTo(ObservabilityConfig.OFF);
        assertThat(parse("").observability().enabled()).isFalse();
    }

    @Test
    void aPortTurnsItOnOnThisMachineOnlyUnlessAHostIsGiven() {
        assertThat(parse("observability: {port: 9464}\n").observability()).isEqualTo(new ObservabilityConfig("127.0.0.1", 9464));
        assertThat(parse("observability:\n  port: 9464\n  host: 0.0.0.0\n").observability())
                .isEqualTo(new ObservabilityConfig("0.0.0.0", 9464));
        assertThat(parse("observability: {port: 9464, host: \"[::1]\"}\n").observability().host()).isEqualTo("[::1]");
    }

    @Test
    void badValuesNameTheirKey() {
        assertThat(problems("observability: {port: 70000}\n"))
                .contains("Invalid value 70000 for configuration observability.port: must be between 1 and 65535");
        assertThat(problems("observability: {port: http}\n"))
                .contains("Invalid value http for configuration observability.port: expected a whole number");
        assertThat(problems("observability: {host: 0.0.0.0}\n")).contains("Missing value for configuration observability.port");
        assertThat(problems("observability: {port: 9464, host: \"a b\"}\n"))
                .contains("Invalid value a b for configuration observability.host");
        assertThat(problems("observability: {port: 9464, path: /m}\n")).contains("Unknown configuration observability.path");
        assertThat(problems("observability: 9464\n"))
                .contains("Invalid value 9464 for configuration observability: expected a mapping with keys");
    }
}
