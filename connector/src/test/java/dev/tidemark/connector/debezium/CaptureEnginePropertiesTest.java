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
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/** The engine settings from source.heartbeat and source.debezium, and which records are never sent. */
class CaptureEnginePropertiesTest {

    @Test
    void heartbeatsWriteTidemarksOwnMessageAtTheInterval() {
        Properties p = new DebeziumChangeSource(config(Duration.ofMillis(750), Map.of())).engineProperties();
        assertThat(p.getProperty("heartbeat.interval.ms")).isEqualTo("750");
        assertThat(p.getProperty("heartbeat.action.query")).isEqualTo("SELECT pg_logical_emit_message(true, 'tidemark', 'heartbeat')");
        assertThat(p.getProperty("message.prefix.include.list")).isEqualTo(SourceSlots.MESSAGE_PREFIX + "," + DdlTrigger.PREFIX + "," + PartitionTruncateTrigger.PREFIX);
    }

    @Test
    void debeziumsQueueIsBoundedInBytesSoLargeRowsCannotFillTheHeap() {
        Properties p = new DebeziumChangeSource(config(Duration.ZERO, Map.of())).engineProperties();
        assertThat(p.getProperty("max.queue.size.in.bytes")).isEqualTo(Long.toString(32L << 20));
        assertThat(p.getProperty("max.queue.size")).isEqualTo("16384");
    }

    @Test
    void noHeartbeatSettingsWhenTheyAreOff() {
        Properties p = new DebeziumChangeSource(config(Duration.ZERO, Map.of())).engineProperties();
        assertThat(p).doesNotContainKey("heartbeat.interval.ms").doesNotContainKey("heartbeat.action.query");
    }

    @Test
    void passedSettingsReachTheEngineAndSnapshotModeIsTaken() {
        Properties p = new DebeziumChangeSource(config(Duration.ZERO,
                Map.of("column.mask.with.4.chars", "public\\.t\\.card", "snapshot.mode", "no_data"))).engineProperties();
        assertThat(p.getProperty("column.mask.with.4.chars")).isEqualTo("public\\.t\\.card");
        assertThat(p.getProperty("snapshot.mode")).isEqualTo("no_data");
        assertThat(new DebeziumChangeSource(config(Duration.ZERO, Map.of())).engineProperties().getProperty("snapshot.mode")).isEqualTo("initial");
    }

    @Test
    void theDenyListKnowsTheConverterNameCaptureRegisters() {
        assertThat(dev.tidemark.connector.config.DebeziumPassThrough.refusal(ExactNumericConverter.NAME, "x", false)).isPresent();
        assertThat(dev.tidemark.connector.config.DebeziumPassThrough.refusal(ExactNumericConverter.NAME + ".type", "x", false)).isPresent();
        assertThat(dev.tidemark.connector.config.DebeziumPassThrough.refusal(SourceTextConverter.NAME, "x", false)).isPresent();
        assertThat(dev.tidemark.connector.config.DebeziumPassThrough.refusal(SourceTextConverter.NAME + ".type", "x", false)).isPresent();
    }

    @Test
    void bothConvertersAreRegistered() {
        Properties p = new DebeziumChangeSource(config(Duration.ZERO, Map.of())).engineProperties();
        assertThat(p.getProperty("converters")).isEqualTo(ExactNumericConverter.NAME + "," + SourceTextConverter.NAME);
        assertThat(p.getProperty(SourceTextConverter.NAME + ".type")).isEqualTo(SourceTextConverter.class.getName());
    }

    @Test
    void debeziumHeartbeatRecordsAreRecognisedByTheirSchema() {
        var heartbeat = SchemaBuilder.struct().name("io.debezium.connector.common.Heartbeat").field("ts_ms", SchemaBuilder.int64()).build();
        var row = SchemaBuilder.struct().name("p.public.t.Envelope").field("op", SchemaBuilder.string()).build();
        assertThat(Heartbeats.isHeartbeat(new SourceRecord(Map.of(), Map.of(), "__debezium-heartbeat.p", heartbeat,
                new org.apache.kafka.connect.data.Struct(heartbeat).put("ts_ms", 1L)))).isTrue();
        assertThat(Heartbeats.isHeartbeat(new SourceRecord(Map.of(), Map.of(), "p.public.t", row,
                new org.apache.kafka.connect.data.Struct(row).put("op", "c")))).isFalse();
        assertThat(Heartbeats.isHeartbeat(new SourceRecord(Map.of(), Map.of(), "p.public.t", null, null))).isFalse();
    }

    private static PipelineConfig config(Duration heartbeat, Map<String, String> debezium) {
        SourceConfig source = new SourceConfig("jdbc:postgresql://127.0.0.1:5432/db", "u", Secret.empty(), "slot", "pub",
                List.of(new TableId("public", "t")), false, Duration.ofMillis(10), List.of(), heartbeat, debezium);
        return new PipelineConfig("p", source, new KafkaConfig("127.0.0.1:9092", "p", 3, (short) 1, Map.of()),
                new TargetConfig("jdbc:sqlite:/tmp/x.db", null, Secret.empty(), 500, "__tidemark_position", false), Path.of("/tmp/state"));
    }
}
