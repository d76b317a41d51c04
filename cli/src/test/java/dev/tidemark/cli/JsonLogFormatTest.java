package dev.tidemark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code --log-format json} as logback.xml configures it: the JSON appender's encoder on one event. */
class JsonLogFormatTest {
    @Test
    void oneObjectPerLineWithTimestampLevelLoggerMessageAndThrowable() throws Exception {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        context.putProperty("TIDEMARK_LOG_FORMAT", "JSON");
        JoranConfigurator config = new JoranConfigurator();
        config.setContext(context);
        config.doConfigure(JsonLogFormatTest.class.getResource("/logback.xml"));
        @SuppressWarnings("unchecked")
        Encoder<ch.qos.logback.classic.spi.ILoggingEvent> encoder = ((OutputStreamAppender<ch.qos.logback.classic.spi.ILoggingEvent>)
                context.getLogger("ROOT").getAppender("JSON")).getEncoder();
        LoggingEvent event = new LoggingEvent("x", context.getLogger("dev.tidemark.Some"), Level.WARN, "table {} said \"hi\"\nthere",
                new IllegalStateException("boom"), new Object[] {"t1"});
        event.setTimeStamp(1_700_000_000_123L);
        String line = new String(encoder.encode(event), StandardCharsets.UTF_8);
        assertThat(line).endsWith("\n");
        assertThat(line.strip()).doesNotContain("\n");
        JsonNode json = new ObjectMapper().readTree(line);
        assertThat(json.get("timestamp").asLong()).isEqualTo(1_700_000_000_123L);
        assertThat(json.get("level").asText()).isEqualTo("WARN");
        assertThat(json.get("loggerName").asText()).isEqualTo("dev.tidemark.Some");
        assertThat(json.get("formattedMessage").asText()).isEqualTo("table t1 said \"hi\"\nthere");
        assertThat(json.get("throwable").get("className").asText()).isEqualTo("java.lang.IllegalStateException");
        assertThat(json.get("throwable").get("message").asText()).isEqualTo("boom");
        assertThat(json.has("arguments")).as("the raw arguments are not printed").isFalse();
    }
}
