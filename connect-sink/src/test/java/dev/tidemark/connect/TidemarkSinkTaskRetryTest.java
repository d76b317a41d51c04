package dev.tidemark.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transient target failure inside {@code put}: the task hands the backoff to the worker
 * ({@code context.timeout}, then {@link RetriableException}) instead of sleeping, and the redelivered records apply.
 * The target is SQLite, held busy by an exclusive transaction of another connection.
 */
class TidemarkSinkTaskRetryTest {
    private static final TopicPartition TP = new TopicPartition("tm.public.orders", 0);

    @TempDir
    Path dir;

    @Test
    void aBusyTargetHandsTheBackoffToTheWorkerAndTheRedeliveredRecordsApply() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("target.db");
        FakeTaskContext context = new FakeTaskContext();
        TidemarkSinkTask task = new TidemarkSinkTask();
        task.initialize(context);
        task.start(Map.of("name", "retry", ConnectSinkConfig.TARGET_URL, url));
        try {
            context.assigned.add(TP);
            task.open(List.of(TP));
            List<SinkRecord> records = List.of(record(0, 1, "alice"));
            try (Connection holder = DriverManager.getConnection(url); Statement s = holder.createStatement()) {
                s.execute("BEGIN EXCLUSIVE");
                long began = System.nanoTime();
                assertThatThrownBy(() -> task.put(records)).isInstanceOf(RetriableException.class);
                assertThat((System.nanoTime() - began) / 1_000_000).as("ms in put before handing over").isLessThan(10_000);
                assertThat(context.timeouts).hasSize(1);
                assertThat(context.timeouts.get(0)).isBetween(1L, 200L);
                s.execute("ROLLBACK");
            }
            task.put(records);
            assertThat(names(url)).containsExactly("alice");
        } finally {
            task.stop();
        }
    }

    private static List<String> names(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT \"customer\" FROM \"orders\"")) {
            java.util.ArrayList<String> out = new java.util.ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }

    static SinkRecord record(long offset, long id, String customer) {
        byte[] key = ("{\"schema\":{\"type\":\"struct\",\"fields\":[{\"type\":\"int64\",\"optional\":false,\"field\":\"id\"}],"
                + "\"optional\":false,\"name\":\"tm.public.orders.Key\"},\"payload\":{\"id\":" + id + "}}").getBytes(StandardCharsets.UTF_8);
        String row = "{\"type\":\"struct\",\"fields\":[{\"type\":\"int64\",\"optional\":false,\"field\":\"id\"},"
                + "{\"type\":\"string\",\"optional\":true,\"field\":\"customer\"}],\"optional\":true,"
                + "\"name\":\"tm.public.orders.Value\",\"field\":\"%s\"}";
        String schema = "{\"type\":\"struct\",\"fields\":[" + row.formatted("before") + "," + row.formatted("after") + ","
                + "{\"type\":\"struct\",\"fields\":[{\"type\":\"string\",\"optional\":false,\"field\":\"connector\"},"
                + "{\"type\":\"string\",\"optional\":false,\"field\":\"schema\"},{\"type\":\"string\",\"optional\":false,\"field\":\"table\"},"
                + "{\"type\":\"int64\",\"optional\":true,\"field\":\"lsn\"}],\"optional\":false,\"field\":\"source\"},"
                + "{\"type\":\"string\",\"optional\":false,\"field\":\"op\"}],\"optional\":false,\"name\":\"tm.public.orders.Envelope\"}";
        byte[] value = ("{\"schema\":" + schema + ",\"payload\":{\"before\":null,\"after\":{\"id\":" + id + ",\"customer\":\""
                + customer + "\"},\"source\":{\"connector\":\"postgresql\",\"schema\":\"public\",\"table\":\"orders\",\"lsn\":"
                + (100 + offset) + "},\"op\":\"c\"}}").getBytes(StandardCharsets.UTF_8);
        return new SinkRecord(TP.topic(), TP.partition(), null, key, null, value, offset);
    }
}
