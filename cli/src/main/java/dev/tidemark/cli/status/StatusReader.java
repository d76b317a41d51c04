package dev.tidemark.cli.status;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.connector.debezium.CaptureStartDecision;
import dev.tidemark.connector.debezium.Lsn;
import dev.tidemark.connector.debezium.OffsetsFile;
import dev.tidemark.connector.debezium.StoredOffsets;
import dev.tidemark.connector.pipeline.SinkFactory;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads a {@link PipelineStatus}; each of the three sources failing is reported as a problem, not thrown. */
public final class StatusReader {
    private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(10);

    private StatusReader() {
    }

    public static PipelineStatus read(PipelineConfig config) {
        List<String> problems = new ArrayList<>();
        PipelineStatus.Slot slot = readSlot(config, problems);
        String offsets = captureOffsets(config, slot, problems);
        Map<String, Map<Integer, Long>> stored = Map.of();
        try (JdbcChangeSink sink = SinkFactory.openTarget(config)) {
            stored = sink.storedOffsets();
        } catch (RuntimeException e) {
            problems.add("target " + UrlMask.mask(config.target().jdbcUrl()) + ": " + e.getMessage());
        }
        List<PipelineStatus.Partition> partitions = new ArrayList<>();
        Properties p = new Properties();
        p.putAll(config.kafka().properties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafka().bootstrapServers());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            for (String topic : config.topics()) {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, KAFKA_TIMEOUT);
                if (infos == null || infos.isEmpty()) {
                    problems.add("topic " + topic + " does not exist yet (capture has not started)");
                    continue;
                }
                List<TopicPartition> tps = infos.stream().map(i -> new TopicPartition(topic, i.partition())).sorted(
                        java.util.Comparator.comparingInt(TopicPartition::partition)).toList();
                Map<TopicPartition, Long> end = consumer.endOffsets(tps, KAFKA_TIMEOUT);
                for (TopicPartition tp : tps) {
                    long e = end.get(tp);
                    long s = stored.getOrDefault(topic, Map.of()).getOrDefault(tp.partition(), 0L);
                    partitions.add(new PipelineStatus.Partition(topic, tp.partition(), e, s, Math.max(0, e - s)));
                }
            }
        } catch (RuntimeException e) {
            problems.add("kafka " + config.kafka().bootstrapServers() + ": " + e.getMessage());
        }
        return new PipelineStatus(config.name(), Instant.now().toString(), slot, offsets, partitions, problems);
    }

    /**
     * Capture's offsets file as a phrase; a slot that is gone while offsets exist, or offsets that are damaged, is a
     * problem (capture would refuse to start).
     */
    private static String captureOffsets(PipelineConfig config, PipelineStatus.Slot slot, List<String> problems) {
        StoredOffsets stored = OffsetsFile.read(config.offsetsFile());
        String slotName = config.source().slot();
        if (stored instanceof StoredOffsets.Present p) {
            String at = p.position().map(Lsn::toString).orElse("no position");
            if (slot != null && !slot.exists()) {
                problems.add("replication slot \"" + slotName + "\" does not exist but the offsets file " + p.file() + " holds position "
                        + at + ": the slot was dropped and the changes since are gone from the server. "
                        + CaptureStartDecision.waysOn(null, true));
            }
            if (p.snapshotIncomplete() && slot != null && !slot.active()) {
                problems.add("capture offsets file " + p.file() + " was stored during an initial snapshot that did not complete; "
                        + "capture will refuse to start. " + CaptureStartDecision.waysOn(null, !slot.exists()));
            }
            return "at " + at + (p.snapshotIncomplete() ? " (initial snapshot not completed)" : "");
        }
        if (stored instanceof StoredOffsets.Damaged d) {
            problems.add("capture offsets file " + d.file() + " is damaged (" + d.reason() + "); capture will refuse to start. "
                    + CaptureStartDecision.waysOn(null, slot == null || !slot.exists()));
            return "damaged: " + d.reason();
        }
        if (slot != null && slot.exists()) {
            problems.add("replication slot \"" + slotName + "\" exists but the offsets file " + stored.file()
                    + " is missing; capture will refuse to start. " + CaptureStartDecision.waysOn(null, false));
        }
        return "missing";
    }

    private static PipelineStatus.Slot readSlot(PipelineConfig config, List<String> problems) {
        Properties p = new Properties();
        p.setProperty("user", config.source().user());
        if (!config.source().password().isEmpty()) {
            p.setProperty("password", config.source().password().reveal());
        }
        String sql = "SELECT active, confirmed_flush_lsn::text, pg_current_wal_lsn()::text, "
                + "coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn), 0)::bigint FROM pg_replication_slots WHERE slot_name = ?";
        try (Connection c = DriverManager.getConnection(config.source().jdbcUrl(), p); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, config.source().slot());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new PipelineStatus.Slot(config.source().slot(), false, false, null, null, 0);
                }
                return new PipelineStatus.Slot(config.source().slot(), true, rs.getBoolean(1), rs.getString(2), rs.getString(3), rs.getLong(4));
            }
        } catch (SQLException e) {
            problems.add("source " + UrlMask.mask(config.source().jdbcUrl()) + ": " + e.getMessage());
            return null;
        }
    }
}
