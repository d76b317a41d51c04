package dev.tidemark.tests.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connect.ConnectSinkConfig;
import dev.tidemark.connect.TidemarkSinkConnector;
import dev.tidemark.event.TableId;
import dev.tidemark.reconcile.ReconcileRequest;
import dev.tidemark.reconcile.ReconcileResult;
import dev.tidemark.reconcile.Reconciler;
import dev.tidemark.tests.TestInfrastructure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * Connect's own test cluster ({@link EmbeddedConnectCluster}: workers in this JVM over a KRaft test broker) with the
 * Tidemark sink plugin and Debezium's PostgreSQL connector on its class path (found by {@code service_load}), plus
 * the helpers the Connect ITs share: the plugin's configuration, the target's stored offsets and reconcile.
 *
 * <p>Worker settings that matter: a worker that leaves has its tasks reassigned after 1 s
 * ({@code scheduled.rebalance.max.delay.ms}, 5 min by default), offsets are committed every 500 ms, and a stopping
 * worker gives its tasks 500 ms before abandoning them (close to a crash: an abandoned task may still be mid-put).
 */
final class ConnectWorld implements AutoCloseable {
    final EmbeddedConnectCluster connect;

    ConnectWorld(String name, int workers) {
        this(name, workers, Map.of());
    }

    /** With {@code extraWorkerProps} added to (or replacing) the worker settings above. */
    ConnectWorld(String name, int workers, Map<String, String> extraWorkerProps) {
        Map<String, String> workerProps = new HashMap<>();
        workerProps.put("plugin.discovery", "service_load");
        workerProps.put("scheduled.rebalance.max.delay.ms", "1000");
        workerProps.put("offset.flush.interval.ms", "500");
        workerProps.put("task.shutdown.graceful.timeout.ms", "500");
        workerProps.putAll(extraWorkerProps);
        connect = new EmbeddedConnectCluster.Builder().name(name).numWorkers(workers).numBrokers(1)
                .workerProps(workerProps).build();
        connect.start();
    }

    String bootstrap() {
        return connect.kafka().bootstrapServers();
    }

    /**
     * Deletes connector {@code name} and waits until its tasks have left their consumer group ({@code connect-NAME}):
     * Connect answers the delete before its tasks have stopped, and a task still running may apply what is produced next.
     */
    void deleteConnectorAndAwaitItsTasksGone(String name) {
        connect.deleteConnector(name);
        try (org.apache.kafka.clients.admin.Admin admin = connect.kafka().createAdminClient()) {
            await("the tasks of connector " + name + " left consumer group connect-" + name).atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                    .until(() -> admin.describeConsumerGroups(java.util.List.of("connect-" + name)).all().get()
                            .get("connect-" + name).members().isEmpty());
        }
    }

    /** The Tidemark sink plugin's configuration for {@code topics} into a PostgreSQL target database. */
    /**
     * Waits until connector {@code name} and exactly {@code tasks} tasks are RUNNING, for up to {@code within}; on timeout
     * the assertion names each task's state and worker (and a failed task's trace) as Connect last reported them. A
     * worker that leaves without its LeaveGroup reaching the coordinator keeps its tasks until its session times out,
     * then the reassignment waits {@code scheduled.rebalance.max.delay.ms}: on a loaded machine this takes longer than
     * Connect's own assertion waits.
     */
    void awaitTasksRunning(String name, int tasks, String what, Duration within) {
        AtomicReference<String> last = new AtomicReference<>("no status yet");
        try {
            await(what).atMost(within).pollInterval(Duration.ofMillis(250)).ignoreExceptions().until(() -> {
                var status = connect.connectorStatus(name);
                StringBuilder text = new StringBuilder("connector " + status.connector().state() + " on " + status.connector().workerId());
                status.tasks().forEach(t -> text.append("; task ").append(t.id()).append(' ').append(t.state()).append(" on ")
                        .append(t.workerId()).append(t.trace() == null ? "" : " trace: " + t.trace()));
                last.set(text.toString());
                return "RUNNING".equals(status.connector().state()) && status.tasks().size() == tasks
                        && status.tasks().stream().allMatch(t -> "RUNNING".equals(t.state()));
            });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(what + " within " + within + ": " + last.get(), e);
        }
    }

    static Map<String, String> sinkConfig(String topics, int tasks, TestInfrastructure.PgServer pg, String targetDb, String converter) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", TidemarkSinkConnector.class.getName());
        c.put("tasks.max", String.valueOf(tasks));
        c.put("topics", topics);
        c.put("key.converter", converter);
        c.put("value.converter", converter);
        c.put(ConnectSinkConfig.TARGET_URL, pg.jdbcUrl(targetDb));
        c.put(ConnectSinkConfig.TARGET_USER, pg.user());
        c.put(ConnectSinkConfig.TARGET_PASSWORD, pg.password());
        c.put(ConnectSinkConfig.BATCH_SIZE, "200");
        return c;
    }

    /** The offsets stored in the target's {@code tidemark_offsets} for {@code pipeline} (empty before the first batch). */
    static Map<TopicPartition, Long> storedOffsets(TestInfrastructure.PgServer pg, String targetDb, String pipeline) throws SQLException {
        Map<TopicPartition, Long> out = new HashMap<>();
        try (Connection c = pg.connect(targetDb); PreparedStatement s = c.prepareStatement(
                "SELECT \"topic\", \"partition\", \"next_offset\" FROM \"tidemark_offsets\" WHERE \"pipeline\" = ?")) {
            s.setString(1, pipeline);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.put(new TopicPartition(rs.getString(1), rs.getInt(2)), rs.getLong(3));
                }
            }
        } catch (SQLException e) {
            if ("42P01".equals(e.getSQLState())) {
                return out; // no batch applied yet
            }
            throw e;
        }
        return out;
    }

    /** When each partition's offset row of {@code pipeline} was last written ({@code updated_at}). */
    static Map<TopicPartition, String> offsetsWrittenAt(TestInfrastructure.PgServer pg, String targetDb, String pipeline) throws SQLException {
        Map<TopicPartition, String> out = new HashMap<>();
        try (Connection c = pg.connect(targetDb); PreparedStatement s = c.prepareStatement(
                "SELECT \"topic\", \"partition\", \"updated_at\" FROM \"tidemark_offsets\" WHERE \"pipeline\" = ?")) {
            s.setString(1, pipeline);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.put(new TopicPartition(rs.getString(1), rs.getInt(2)), rs.getString(3));
                }
            }
        }
        return out;
    }

    /** Reconciles the source table against the target table. */
    static ReconcileResult reconcile(TestInfrastructure.PgServer pg, String sourceDb, TableId table, String targetDb) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", pg.user());
        p.setProperty("password", pg.password());
        return Reconciler.reconcile(ReconcileRequest.of(ReconcileRequest.Endpoint.of(pg.jdbcUrl(sourceDb), p), table,
                ReconcileRequest.Endpoint.of(pg.jdbcUrl(targetDb), p), table.table()).withSettle(Duration.ZERO));
    }

    /** Waits until reconcile finds no difference; returns that result. */
    static ReconcileResult awaitNoDifferences(TestInfrastructure.PgServer pg, String sourceDb, TableId table, String targetDb) {
        AtomicReference<ReconcileResult> last = new AtomicReference<>();
        try {
            await("reconcile of " + table + " against the target finding 0 differences")
                    .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                    .until(() -> {
                        ReconcileResult r = reconcile(pg, sourceDb, table, targetDb);
                        last.set(r);
                        return r.missingCount() + r.surplusCount() + r.changedCount() == 0;
                    });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            ReconcileResult r = last.get();
            throw new AssertionError(r == null ? e.getMessage() : line(r) + "; missing " + r.missing() + ", surplus " + r.surplus()
                    + ", changed " + r.changed(), e);
        }
        return last.get();
    }

    /** The closing note's line for a result. */
    static String line(ReconcileResult r) {
        long differences = r.missingCount() + r.surplusCount() + r.changedCount();
        return "reconcile " + r.table() + " -> " + r.targetTable() + ": source rows " + r.sourceRows() + ", target rows "
                + r.targetRows() + ", missing=" + r.missingCount() + " surplus=" + r.surplusCount() + " changed="
                + r.changedCount() + ": " + differences + " differences";
    }

    /** Asserts 0 differences and writes the line to {@code /work/notes/i14-connect/<file>} where {@code /work/notes} exists. */
    static void assertNoDifferencesAndRecord(String scenario, ReconcileResult r, String file) throws IOException {
        String line = scenario + ": " + line(r);
        System.out.println(line);
        assertThat(r.missingCount()).as(line).isZero();
        assertThat(r.surplusCount()).as(line).isZero();
        assertThat(r.changedCount()).as(line).isZero();
        assertThat(r.sourceRows()).as(line).isPositive();
        Path notes = Path.of("/work/notes/i14-connect");
        if (Files.isDirectory(notes.getParent())) {
            Files.createDirectories(notes);
            Files.writeString(notes.resolve(file), line + System.lineSeparator());
        }
    }

    @Override
    public void close() {
        connect.stop();
    }
}
