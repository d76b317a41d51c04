package dev.tidemark.cli.status;

import dev.tidemark.connector.config.TargetAccess;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.pipeline.GapWayOn;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.connector.debezium.CaptureGaps;
import dev.tidemark.connector.debezium.CaptureStartDecision;
import dev.tidemark.connector.debezium.Lsn;
import dev.tidemark.connector.debezium.OffsetsFile;
import dev.tidemark.connector.debezium.StoredOffsets;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.sink.jdbc.StoredOffsetsReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Reads a {@link PipelineStatus}; each of the three sources failing is reported as a problem, not thrown. Read-only:
 * creates no topic (admin API only), no target file and no table.
 */
public final class StatusReader {
    private StatusReader() {
    }

    public static PipelineStatus read(PipelineConfig config) {
        List<String> problems = new ArrayList<>();
        PipelineStatus.Slot slot = readSlot(config, problems);
        String offsets = captureOffsets(config, slot, problems);
        Map<String, Map<Integer, Long>> stored = readTargetOffsets(config, problems);
        List<PipelineStatus.Partition> partitions = new ArrayList<>();
        boolean lagKnown = stored != null;
        try {
            TopicEnds.Read kafka = TopicEnds.read(config);
            for (String topic : kafka.missing()) {
                Map<Integer, Long> storedHere = stored == null ? Map.of() : stored.getOrDefault(topic, Map.of());
                if (storedHere.values().stream().anyMatch(o -> o > 0)) {
                    storedHere.entrySet().stream().filter(e -> e.getValue() > 0).sorted(Map.Entry.comparingByKey())
                            .forEach(e -> problems.add(pastTheEnd(topic, e.getKey(), e.getValue(), 0, config)));
                } else {
                    problems.add("topic " + topic + " does not exist yet (capture has not started)");
                }
                lagKnown = false;
            }
            for (Map.Entry<org.apache.kafka.common.TopicPartition, Long> e : kafka.ends().entrySet()) {
                var tp = e.getKey();
                long end = e.getValue();
                Long s = stored == null ? null : stored.getOrDefault(tp.topic(), Map.of()).getOrDefault(tp.partition(), 0L);
                boolean pastEnd = s != null && s > end;
                if (pastEnd) {
                    problems.add(pastTheEnd(tp.topic(), tp.partition(), s, end, config));
                    lagKnown = false;
                }
                partitions.add(new PipelineStatus.Partition(tp.topic(), tp.partition(), end, s, s == null || pastEnd ? null : end - s));
            }
        } catch (RuntimeException e) {
            problems.add("kafka " + config.kafka().bootstrapServers() + ": " + e.getMessage());
            lagKnown = false;
        }
        Long total = lagKnown ? partitions.stream().mapToLong(PipelineStatus.Partition::lag).sum() : null;
        List<String> gaps = CaptureGaps.read(CaptureGaps.fileFor(config)).stream().map(CaptureGaps.Gap::describe).toList();
        List<String> removed = new ArrayList<>();
        try {
            dev.tidemark.connector.debezium.TableSet.read(config.offsetsFile())
                    .ifPresent(t -> t.removed().forEach(r -> removed.add(r.toString())));
        } catch (IllegalStateException e) {
            problems.add(e.getMessage());
        }
        return new PipelineStatus(config.name(), Instant.now().toString(), slot, offsets, partitions, total, problems, gaps, removed);
    }

    /**
     * A stored offset past the partition's end: the topic was deleted and re-created (or Kafka's data lost), so the
     * lag cannot be known and the sink refuses to start; the way on is the one the sink's refusal names
     * ({@link GapWayOn}: the table's re-snapshot where the topic carries a captured table, else the repair).
     */
    static String pastTheEnd(String topic, int partition, long stored, long end, PipelineConfig config) {
        return "topic " + topic + " partition " + partition + ": stored offset " + stored + " is past the end offset " + end
                + " (was the topic deleted" + (end == 0 ? "" : " and re-created") + "?); the sink will refuse to start: "
                + GapWayOn.text("run", "<pipeline file>", GapWayOn.tables(List.of(topic), GapWayOn.tablesByTopic(config)))
                + " (`tidemark sink …` instead of `tidemark run …` for a sink alone)";
    }

    /**
     * The offsets stored in the target, read without creating anything: a SQLite file that does not exist is not
     * opened (the driver would create it), a target without {@code tidemark_offsets} has applied nothing. Null (with
     * a problem) when the target cannot be read.
     */
    private static Map<String, Map<Integer, Long>> readTargetOffsets(PipelineConfig config, List<String> problems) {
        String url = config.target().jdbcUrl();
        Optional<Path> file = ExistingTarget.absentFile(config);
        if (file.isPresent()) {
            problems.add("target " + file.get() + " does not exist yet (the sink has not started)");
            return Map.of();
        }
        Connection c;
        try {
            c = TargetAccess.open(config);
        } catch (SQLException | RuntimeException e) {
            problems.add(e.getMessage()); // names the target and its URL, masked
            return null;
        }
        try (c) {
            return StoredOffsetsReader.readIfPresent(c, Databases.targetForUrl(url), config.name()).orElse(Map.of());
        } catch (SQLException | RuntimeException e) {
            problems.add("target " + UrlMask.mask(url) + ": " + e.getMessage());
            return null;
        }
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
