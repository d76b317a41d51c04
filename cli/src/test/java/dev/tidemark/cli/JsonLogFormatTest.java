package dev.tidemark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class JsonLogLayoutTest {
    @Test
    void oneObjectPerLineWithTimestampLevelLoggerAndMessage() throws Exception {
        LoggerContext context = new LoggerContext();
        LoggingEvent event = new LoggingEvent("x", context.getLogger("dev.tidemark.Some"), Level.WARN, "table {} said \"hi\"\nthere",
                new IllegalStateException("boom"), new Object[] {"t1"});
        event.setTimeStamp(1_700_000_000_123L);
        String line = new JsonLogLayout().doLayout(event);
        assertThat(line).endsWith(System.lineSeparator());
        assertThat(line.strip()).doesNotContain("\n");
        JsonNode json = new ObjectMapper().readTree(line);
        assertThat(json.get("ts").asText()).matches("2023-11-1[45]T\\d\\d:\\d\\d:20\\.123(Z|[+-]\\d\\d:\\d\\d)");
        assertThat(json.get("level").asText()).isEqualTo("WARN");
        assertThat(json.get("logger").asText()).isEqualTo("dev.tidemark.Some");
        assertThat(json.get("message").asText()).isEqualTo("table t1 said \"hi\"\nthere");
        assertThat(json.get("exception").asText()).startsWith("java.lang.IllegalStateException: boom");
    }
}
