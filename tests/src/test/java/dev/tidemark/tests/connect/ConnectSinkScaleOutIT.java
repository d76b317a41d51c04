package dev.tidemark.tests.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.reconcile.ReconcileResult;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink as a Kafka Connect plugin scales out and survives a worker leaving mid-stream: Connect's own
 * {@code EmbeddedConnectCluster} with 2 workers runs the plugin with 2 tasks over a 2-partition topic that Tidemark's
 * capture fills from a real PostgreSQL table while it changes. Mid-stream one worker (one running a task) is stopped
 * (its tasks get 500 ms, then are abandoned); the group rebalances, both tasks run on the other worker; a new worker
 * joins (another rebalance) and more changes follow. At the end reconcile finds 0 differences between the source
 * table and the target table, every partition's offset stored in the target is the topic's end, and Connect's own
 * committed offsets equal the target's (preCommit never let them run ahead). Then Connect's own offsets are reset to 0
 * with the connector stopped: resumed, the tasks start at the target's offsets and apply nothing again.
 */
class ConnectSinkScaleOutIT {
    private static final TableId TABLE = new TableId("public", "items");
    private static final String CONNECTOR = "tidemark-items";
    private static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";

    @TempDir
    Path dir;

    @Test
    void twoWorkersTwoTasksAWorkerStoppedMidStreamAndRebalancesEndEqualToTheSource() throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String sourceDb = TestInfrastructure.newDatabase("connect_src");
        String targetDb = TestInfrastructure.newDatabase("connect_tgt");
        long seed = Long.getLong("tidemark.connect.seed", System.nanoTime());
        System.out.println("ConnectSinkScaleOutIT seed " + seed + " (rerun with -Dtidemark.connect.seed=" + seed + ")");
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try (ConnectWorld world = new ConnectWorld("tidemark-scale-out", 2); Connection source = pg.connect(sourceDb)) {
            SourceWorkload workload = new SourceWorkload(source, TABLE.table(), seed);
            workload.create();
            PipelineConfig config = new PipelineConfig(sourceDb,
                    new SourceConfig(pg.jdbcUrl(sourceDb), pg.user(), Secret.of(pg.password()), "slot_" + sourceDb, "pub_" + sourceDb,
                            List.of(TABLE), true, Duration.ofMillis(10)),
                    new KafkaConfig(world.bootstrap(), sourceDb, 2, (short) 1, Map.of()),
                    new TargetConfig("jdbc:sqlite:" + dir.resolve("unused.db"), null, Secret.empty(), 500,
                            SinkOptions.DEFAULT_POSITION_COLUMN, false),
                    dir.resolve("state"));
            String topic = config.topicFor(TABLE);
            Sidecar capture = Sidecar.start(config, true, false, new ReplayFrom.Stored());
            try {
                workload.run(400);
                world.connect.configureConnector(CONNECTOR, ConnectWorld.sinkConfig(topic, 2, pg, targetDb, BYTES));
                world.connect.assertions().assertConnectorAndExactlyNumTasksAreRunning(CONNECTOR, 2, "the plugin's 2 tasks did not start");
                await("both partitions of " + topic + " applied to the target (offsets stored for each)")
                        .atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                        .failFast("capture failed", () -> capture.failure().isPresent())
                        .until(() -> ConnectWorld.storedOffsets(pg, targetDb, CONNECTOR).size() == 2);

                // mid-stream: changes keep flowing while a worker running a task stops and the group rebalances
                Future<?> stream = writer.submit(() -> {
                    for (int i = 0; i < 60; i++) {
                        workload.run(100);
                    }
                    return null;
                });
                Map<TopicPartition, Long> before = ConnectWorld.storedOffsets(pg, targetDb, CONNECTOR);
                await("the plugin applying the stream (stored offsets moving past " + before + ")")
                        .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                        .until(() -> !ConnectWorld.storedOffsets(pg, targetDb, CONNECTOR).equals(before));
                WorkerHandle victim = workerRunningATask(world);
                assertThat(stream.isDone()).as("the source still changing when the worker stops").isFalse();
                String victimUrl = String.valueOf(victim.url()); // a stopped worker has no URL any more
                world.connect.removeWorker(victim);
                assertThat(world.connect.workers()).hasSize(1);
                world.awaitTasksRunning(CONNECTOR, 2, "the 2 tasks running again on the remaining worker after " + victimUrl + " stopped",
                        Duration.ofMinutes(4));
                stream.get(120, TimeUnit.SECONDS);

                // a new worker joins (another rebalance) and more changes follow
                world.connect.addWorker();
                world.connect.assertions().assertConnectorAndExactlyNumTasksAreRunning(CONNECTOR, 2, "the 2 tasks after a worker joined");
                workload.run(400);

                ReconcileResult result = ConnectWorld.awaitNoDifferences(pg, sourceDb, TABLE, targetDb);
                Map<TopicPartition, Long> ends = new HashMap<>();
                for (int p = 0; p < 2; p++) {
                    TopicPartition tp = new TopicPartition(topic, p);
                    ends.put(tp, world.connect.kafka().endOffset(tp));
                }
                await("the target's stored offsets at the topic's end " + ends)
                        .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .until(() -> ConnectWorld.storedOffsets(pg, targetDb, CONNECTOR).equals(ends));
                await("Connect's committed offsets equal to the target's " + ends)
                        .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                        .until(() -> connectOffsets(world).equals(ends));
                assertThat(capture.failure()).isEmpty();
                assertThat(result.sourceRows()).isEqualTo(workload.liveRows());
                ConnectWorld.assertNoDifferencesAndRecord("ConnectSinkScaleOutIT (2 workers, 2 tasks, worker stopped mid-stream, 2 rebalances)",
                        result, "reconcile.txt");
                targetOffsetsWinOverConnects(world, pg, targetDb, ends);
            } finally {
                capture.close();
                try (PreparedStatement s = source.prepareStatement(
                        "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ? AND NOT active")) {
                    s.setString(1, "slot_" + sourceDb);
                    s.execute();
                }
            }
        } finally {
            writer.shutdownNow();
        }
    }

    /**
     * The target's offsets win: with the connector stopped, Connect's own offsets are reset to 0; resumed, the tasks
     * start at the offsets stored in the target, so nothing is applied again: the target's offset rows are not
     * written for 5 s after both tasks run (a replay from 0 would rewrite them within the first batch).
     */
    private static void targetOffsetsWinOverConnects(ConnectWorld world, TestInfrastructure.PgServer pg, String targetDb,
                                                     Map<TopicPartition, Long> ends) throws Exception {
        Map<TopicPartition, String> written = ConnectWorld.offsetsWrittenAt(pg, targetDb, CONNECTOR);
        // right after the rebalances a worker may still forward the request to the stopped worker it last knew as the
        // leader ("IO Error trying to forward REST request … Connection refused"): asked again until the group answers
        await("connector " + CONNECTOR + " stopped").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .ignoreException(org.apache.kafka.connect.runtime.rest.errors.ConnectRestException.class)
                .until(() -> {
                    world.connect.stopConnector(CONNECTOR);
                    return "STOPPED".equals(world.connect.connectorStatus(CONNECTOR).connector().state());
                });
        Map<TopicPartition, Long> zero = new HashMap<>();
        for (TopicPartition tp : ends.keySet()) {
            world.connect.alterSinkConnectorOffset(CONNECTOR, tp, 0L);
            zero.put(tp, 0L);
        }
        assertThat(connectOffsets(world)).isEqualTo(zero);
        world.connect.resumeConnector(CONNECTOR);
        world.connect.assertions().assertConnectorAndExactlyNumTasksAreRunning(CONNECTOR, 2, "the 2 tasks after resuming");
        await("the target's offset rows left alone after Connect's offsets were reset to 0 (no replay from 0)")
                .during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250))
                .until(() -> ConnectWorld.offsetsWrittenAt(pg, targetDb, CONNECTOR).equals(written));
        assertThat(ConnectWorld.storedOffsets(pg, targetDb, CONNECTOR)).isEqualTo(ends);
    }

    /** A worker that runs one of the connector's tasks (its REST URL names the task's worker id). */
    private static WorkerHandle workerRunningATask(ConnectWorld world) {
        List<String> taskWorkers = world.connect.connectorStatus(CONNECTOR).tasks().stream().map(t -> t.workerId()).toList();
        return world.connect.workers().stream()
                .filter(w -> taskWorkers.stream().anyMatch(id -> id.endsWith(":" + w.url().getPort())))
                .findFirst().orElseThrow(() -> new AssertionError("no worker runs a task of " + CONNECTOR + ": " + taskWorkers));
    }

    /** Connect's committed offsets of the connector, per topic partition. */
    private static Map<TopicPartition, Long> connectOffsets(ConnectWorld world) {
        Map<TopicPartition, Long> out = new HashMap<>();
        for (ConnectorOffset o : world.connect.connectorOffsets(CONNECTOR).offsets()) {
            out.put(new TopicPartition((String) o.partition().get("kafka_topic"), ((Number) o.partition().get("kafka_partition")).intValue()),
                    ((Number) o.offset().get("kafka_offset")).longValue());
        }
        return out;
    }
}
