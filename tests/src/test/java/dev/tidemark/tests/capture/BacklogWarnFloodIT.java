package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A streamed backlog of 500,000 changes (100,000 inserts, then four updates of every row) applied by capture and sink
 * in one process (issue 21, item 13) leaves at most one "queue is full" WARN line of Debezium's {@code MeasurementCollector} per started minute:
 * capture switches Debezium's lag statistics off (nothing reads them), so their sample queue no longer overflows into
 * one WARN per dropped sample so often, and what still overflows on a loaded machine is bounded to the first line
 * and then one a minute ({@code RepeatLimitFilter} in {@code logback.xml}, also in the tests' {@code logback-test.xml}).
 * Other WARN lines are left as they are.
 */
class BacklogWarnFloodIT {
    private static final int ROWS = 100_000;

    @TempDir
    Path dir;

    @Test
    void aStreamedBacklogLogsAtMostAFewMeasurementQueueWarnings() throws Exception {
        try (CaptureFixture f = new CaptureFixture("backlog_warn", dir, List.of(new TableId("public", "items")))) {
            f.sql("CREATE TABLE public.items (id int PRIMARY KEY, note text)");
            Sidecar first = f.start(true, false);
            await("capture streaming").atMost(Duration.ofSeconds(90)).failFast("capture failed", () -> first.failure().isPresent())
                    .until(() -> first.capture().orElseThrow().isStreaming());
            first.close();
            f.sql("INSERT INTO public.items SELECT g, 'note ' || g FROM generate_series(1, " + ROWS + ") g");
            for (int i = 0; i < 4; i++) {
                f.sql("UPDATE public.items SET note = note || 'x'");
            }
            ListAppender<ILoggingEvent> lines = new ListAppender<>();
            lines.start();
            Logger collector = (Logger) LoggerFactory.getLogger("io.debezium.metrics.stats.MeasurementCollector");
            collector.addAppender(lines);
            long started = System.nanoTime();
            long minutes;
            try {
                Sidecar second = f.start(true, true);
                await("the backlog of " + 5 * ROWS + " changes sent to Kafka").atMost(Duration.ofSeconds(240))
                        .pollInterval(Duration.ofMillis(500)).failFast("capture failed", () -> second.failure().isPresent())
                        .until(() -> second.capture().orElseThrow().eventsSent() >= 5L * ROWS);
                second.close();
            } finally {
                minutes = Duration.ofNanos(System.nanoTime() - started).toMinutes();
                collector.detachAppender(lines);
            }
            List<String> warnings = lines.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                    .map(ILoggingEvent::getFormattedMessage).toList();
            assertThat(warnings).as("MeasurementCollector WARN lines during a backlog of %d changes", 5 * ROWS).hasSizeLessThanOrEqualTo((int) minutes + 1);
        }
    }
}
