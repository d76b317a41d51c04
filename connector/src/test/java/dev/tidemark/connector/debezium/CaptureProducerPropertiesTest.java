package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Capture's producer settings: large batches by default (bench/capture.sh), a size from kafka.properties wins. */
class CaptureProducerPropertiesTest {

    @Test
    void largeBatchesByDefault() {
        Properties p = new DebeziumChangeSource(config(Map.of())).producerProperties();
        assertThat(p.get("batch.size")).isEqualTo(Integer.toString(1 << 20));
        assertThat(p.get("linger.ms")).isEqualTo("50");
        assertThat(p.get("acks")).isEqualTo("all");
        assertThat(p.get("enable.idempotence")).isEqualTo("true");
    }

    @Test
    void batchSizeFromKafkaPropertiesWins() {
        Properties p = new DebeziumChangeSource(config(Map.of("batch.size", "65536"))).producerProperties();
        assertThat(p.get("batch.size")).isEqualTo("65536");
    }

    @Test
    void eventsOfSixteenMebibytesByDefaultWithABufferThatHoldsThem() {
        PipelineConfig c = config(Map.of());
        Properties p = new DebeziumChangeSource(c).producerProperties();
        assertThat(p.get("max.request.size")).isEqualTo(Integer.toString(16 << 20));
        assertThat(Long.parseLong((String) p.get("buffer.memory"))).isGreaterThanOrEqualTo(2L * (16 << 20));
        assertThat(CaptureSettings.topicMaxMessageBytes(c)).isGreaterThan(16 << 20);
    }

    @Test
    void theEventLimitFromKafkaPropertiesWinsAndTheTopicsFollowIt() {
        PipelineConfig c = config(Map.of("max.request.size", "1048576"));
        Properties p = new DebeziumChangeSource(c).producerProperties();
        assertThat(p.get("max.request.size")).isEqualTo("1048576");
        assertThat(CaptureSettings.maxEventBytes(c)).isEqualTo(1048576);
        assertThat(CaptureSettings.topicMaxMessageBytes(c)).isBetween(1048576, 1048576 + 1048576 / 32 + (64 << 10));
        PipelineConfig huge = config(Map.of("max.request.size", "2147483647"));
        assertThat(CaptureSettings.topicMaxMessageBytes(huge)).isEqualTo(Integer.MAX_VALUE);
    }

    private static PipelineConfig config(Map<String, String> kafka) {
        SourceConfig source = new SourceConfig("jdbc:postgresql://127.0.0.1:5432/db", "u", Secret.empty(), "slot", "pub",
                List.of(new TableId("public", "t")), false, Duration.ofMillis(10));
        return new PipelineConfig("p", source, new KafkaConfig("127.0.0.1:9092", "p", 3, (short) 1, kafka),
                new TargetConfig("jdbc:sqlite:/tmp/x.db", null, Secret.empty(), 500, "__tidemark_position", false), Path.of("/tmp/state"));
    }
}
