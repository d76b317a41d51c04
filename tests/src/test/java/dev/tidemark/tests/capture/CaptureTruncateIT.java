package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found while fixing issue 9 item 12: Debezium's {@code skipped.operations} defaults to {@code t}, so a source
 * {@code TRUNCATE} never reached the topic and the target silently kept every truncated row. Capture now emits
 * truncates; a sink with {@code target.applyTruncate: true} applies them, and one without it stops naming the table
 * instead of keeping the rows.
 */
class CaptureTruncateIT {
    static final TableId T = new TableId("public", "trunc_items");

    @TempDir
    Path dir;

    @Test
    void aSourceTruncateEmptiesTheTargetTableWhenTruncatesAreEnabled() throws Exception {
        try (CaptureFixture f = new CaptureFixture("truncon", dir, List.of(T))) {
            f.sql("CREATE TABLE public.trunc_items (id int PRIMARY KEY, note text)",
                    "INSERT INTO trunc_items SELECT g, 'n' || g FROM generate_series(1, 100) g");
            PipelineConfig base = f.config();
            PipelineConfig cfg = new PipelineConfig(base.name(), base.source(), base.kafka(),
                    new TargetConfig(f.targetUrl(), null, Secret.empty(), 500, SinkOptions.DEFAULT_POSITION_COLUMN, true),
                    base.stateDir());
            try (Sidecar s = Sidecar.start(cfg, true, true, new ReplayFrom.Stored())) {
                f.awaitTargetEqual(s, "id");
                f.sql("TRUNCATE trunc_items",
                        "INSERT INTO trunc_items SELECT g, 'after ' || g FROM generate_series(201, 230) g");
                f.awaitTargetEqual(s, "id");
                assertThat(f.targetEqualsSource("id")).as(f.compareSummary("id")).isTrue();
                assertThat(s.failure()).isEmpty();
            }
        }
    }

    @Test
    void aSourceTruncateStopsASinkWithoutTruncatesNamingTheTable() throws Exception {
        try (CaptureFixture f = new CaptureFixture("truncoff", dir, List.of(T))) {
            f.sql("CREATE TABLE public.trunc_items (id int PRIMARY KEY, note text)",
                    "INSERT INTO trunc_items SELECT g, 'n' || g FROM generate_series(1, 100) g");
            Sidecar s = f.start(true, true);
            f.awaitTargetEqual(s, "id");
            f.sql("TRUNCATE trunc_items");
            await("the sink stops on the truncate of " + T).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> s.failure().isPresent());
            assertThat(s.failure().get().getMessage()).contains("trunc_items").contains("truncate")
                    .contains("applyTruncate");
        }
    }
}
