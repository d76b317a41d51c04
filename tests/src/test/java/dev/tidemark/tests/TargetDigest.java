package dev.tidemark.tests;

import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/** A digest of a whole target table (every column, ordered by the first column) and offset helpers. */
final class TargetDigest {
    private TargetDigest() {
    }

    static String of(String url, String table) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        long rows = 0;
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM \"" + table + "\" ORDER BY 1")) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                rows++;
                for (int i = 1; i <= n; i++) {
                    Object v = rs.getObject(i);
                    sha.update(String.valueOf(v instanceof byte[] b ? HexFormat.of().formatHex(b) : v).getBytes(StandardCharsets.UTF_8));
                    sha.update((byte) 0);
                }
            }
        }
        return rows + " rows " + HexFormat.of().formatHex(sha.digest());
    }

    /** Waits until the offsets the sink stored in its target reach the current end of every partition. */
    static void awaitOffsetsAtEnd(String bootstrap, PipelineConfig config, Sidecar sidecar) {
        Map<TopicPartition, Long> end = new java.util.HashMap<>();
        for (String topic : config.topics()) {
            end.putAll(KafkaTopics.endOffsets(bootstrap, topic));
        }
        await("sink " + config.name() + " stored offsets " + end + " in its target")
                .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .failFast("sink failed", () -> sidecar.failure().isPresent())
                .until(() -> end.entrySet().stream().allMatch(e -> {
                    try {
                        return stored(config, e.getKey()) >= e.getValue();
                    } catch (SQLException ex) {
                        return false;
                    }
                }));
    }

    static long stored(PipelineConfig config, TopicPartition tp) throws SQLException {
        try (Connection c = DriverManager.getConnection(config.target().jdbcUrl());
             java.sql.PreparedStatement ps = c.prepareStatement(
                     "SELECT next_offset FROM tidemark_offsets WHERE pipeline = ? AND topic = ? AND partition = ?")) {
            ps.setString(1, config.name());
            ps.setString(2, tp.topic());
            ps.setInt(3, tp.partition());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }
}
