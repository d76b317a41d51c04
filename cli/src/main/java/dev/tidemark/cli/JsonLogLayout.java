package dev.tidemark.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.LayoutBase;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --log-format json}: one JSON object per log line, {@code {"ts":"2026-11-30T18:52:01.123Z","level":"INFO",
 * "logger":"dev.tidemark.connector.pipeline.Sidecar","message":"…"}}, plus {@code "exception"} (the stack trace as one
 * string) when the event carries one. {@code ts} is ISO-8601 with the machine's zone offset. Thread-safe.
 */
public final class JsonLogLayout extends LayoutBase<ILoggingEvent> {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneId.systemDefault());

    @Override
    public String doLayout(ILoggingEvent event) {
        Map<String, String> line = new LinkedHashMap<>();
        line.put("ts", TS.format(Instant.ofEpochMilli(event.getTimeStamp())));
        line.put("level", event.getLevel().toString());
        line.put("logger", event.getLoggerName());
        line.put("message", event.getFormattedMessage());
        if (event.getThrowableProxy() != null) {
            line.put("exception", ThrowableProxyUtil.asString(event.getThrowableProxy()));
        }
        try {
            return JSON.writeValueAsString(line) + System.lineSeparator();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
