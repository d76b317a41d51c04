package dev.tidemark.tests.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.TableId;
import dev.tidemark.testkit.SyntheticChangeStream;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue "schema and topology changes" on Kafka Connect: the plugin's task resumes a partition at the offset stored in
 * the target, so a target table dropped while the connector was away, or a {@code target.tables} entry that now sends
 * the topic to a new table, would leave the table with later rows only. The task stops before writing instead, with
 * one line naming topic, partition, table and the way on. So does a target table emptied by hand ({@code TRUNCATE})
 * while the records the task applied last leave rows in it. The test runs the statements that line names on the target
 * and the restart it names, and the table ends with every live key of the topic's history.
 */
class ConnectTargetTableGoneIT {
    private static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";
    private static final TableId THINGS = new TableId("public", "things");
    private static final int BEFORE = 60;
    private static final int WHILE_AWAY = 20;
    private static ConnectWorld world;

    @BeforeAll
    static void start() {
        world = new ConnectWorld("tidemark-gone", 1);
    }

    @AfterAll
    static void stop() {
        world.close();
    }

    @Test
    void aDroppedTargetTableStopsTheResumedTaskAndTheReplayTheLineNamesRebuildsIt() throws Exception {
        scenario("gone-drop", "drop.public.things", "things", Map.of(), c -> execute(c, "DROP TABLE things"), false);
    }

    @Test
    void aTargetTableEmptiedByHandStopsTheResumedTaskAndTheReplayTheLineNamesRefillsIt() throws Exception {
        scenario("gone-empty", "empty.public.things", "things", Map.of(), c -> execute(c, "TRUNCATE things"), true);
    }

    @Test
    void aTableMappedToANewTargetTableStopsTheResumedTaskAndTheReplayTheLineNamesFillsIt() throws Exception {
        scenario("gone-map", "map.public.things", "things_v2", Map.of("target.tables", "public.things:things_v2"), c -> { }, false);
    }

    private interface TargetChange {
        void apply(Connection target) throws SQLException;
    }

    /**
     * {@value #BEFORE} events applied; the connector deleted, {@code change} made on the target, {@value #WHILE_AWAY}
     * events produced, the connector created again with {@code extra}: refused; the line followed; the table equal.
     * {@code tableStays}: the change leaves the target table in place (emptied), else it is gone.
     */
    private static void scenario(String name, String topic, String table, Map<String, String> extra, TargetChange change,
                                 boolean tableStays) throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String db = TestInfrastructure.newDatabase("connect_" + name.replace('-', '_'));
        TopicPartition tp = new TopicPartition(topic, 0);
        world.connect.kafka().createTopic(topic, 1);
        Producer producer = new Producer(topic);
        producer.produce(BEFORE);
        world.connect.configureConnector(name, ConnectWorld.sinkConfig(topic, 1, pg, db, BYTES));
        awaitStored(pg, db, name, tp, BEFORE);
        world.deleteConnectorAndAwaitItsTasksGone(name);
        try (Connection c = pg.connect(db)) {
            change.apply(c);
        }
        producer.produce(WHILE_AWAY);

        Map<String, String> config = ConnectWorld.sinkConfig(topic, 1, pg, db, BYTES);
        config.putAll(extra);
        world.connect.configureConnector(name, config);
        String line = failedLine(name, table);
        assertThat(line).contains("topic " + topic + " partition 0", "target table " + table, "stored offset " + BEFORE);
        assertThat(ConnectWorld.storedOffsets(pg, db, name)).as("offsets not advanced").containsEntry(tp, (long) BEFORE);
        if (tableStays) {
            assertThat(ids(pg, db, table)).as("nothing was written to the emptied table").isEmpty();
        } else {
            assertThat(exists(pg, db, table)).as("nothing was created in the target").isFalse();
        }

        // the way on, word for word: the statements on the target, then the restart
        List<String> quoted = quoted(line);
        assertThat(quoted).last().asString().isEqualTo("POST /connectors/" + name + "/restart?includeTasks=true&onlyFailed=true");
        try (Connection c = pg.connect(db)) {
            for (String sql : quoted.subList(0, quoted.size() - 1)) {
                execute(c, sql);
            }
        }
        world.connect.restartConnectorAndTasks(name, true, true, false);
        awaitStored(pg, db, name, tp, BEFORE + WHILE_AWAY);
        assertThat(ids(pg, db, table)).as("target table " + table + " holds every live key of the topic's history")
                .isEqualTo(producer.live);
        world.connect.deleteConnector(name);
    }

    private static void awaitStored(TestInfrastructure.PgServer pg, String db, String name, TopicPartition tp, long offset) {
        await(name + ": stored offset of " + tp + " at " + offset).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().until(() -> Long.valueOf(offset).equals(ConnectWorld.storedOffsets(pg, db, name).get(tp)));
    }

    /** Waits until the connector's task failed; returns the line of its trace naming {@code table}. */
    private static String failedLine(String name, String table) throws Exception {
        try {
            await("the task of " + name + " failed").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .until(() -> "FAILED".equals(world.connect.connectorStatus(name).tasks().get(0).state()));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "; the task resumed: " + world.connect.connectorStatus(name), e);
        }
        String trace = world.connect.connectorStatus(name).tasks().get(0).trace();
        System.out.println(name + " failed: " + trace.lines().findFirst().orElse(""));
        return trace.lines().filter(l -> l.contains("target table " + table)).findFirst().orElse(trace);
    }

    /** The texts in backticks in {@code line}. */
    private static List<String> quoted(String line) {
        Matcher m = Pattern.compile("`([^`]+)`").matcher(line);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static boolean exists(TestInfrastructure.PgServer pg, String db, String table) throws SQLException {
        try (Connection c = pg.connect(db); ResultSet rs = c.getMetaData().getTables(null, null, table, null)) {
            return rs.next();
        }
    }

    private static Set<Long> ids(TestInfrastructure.PgServer pg, String db, String table) throws SQLException {
        Set<Long> out = new TreeSet<>();
        try (Connection c = pg.connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM " + table)) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    /** Synthetic change events of public.things on partition 0, with the keys they leave live. */
    private static final class Producer {
        final Set<Long> live = new TreeSet<>();
        private final String topic;
        private final SyntheticChangeStream stream = new SyntheticChangeStream(THINGS, 20, 500);
        private final EnvelopeEncoder encoder;
        private int produced;

        Producer(String topic) {
            this.topic = topic;
            this.encoder = new EnvelopeEncoder(topic.substring(0, topic.indexOf('.')), "postgresql", "gone");
        }

        void produce(int count) {
            for (int i = 0; i < count; i++, produced++) {
                ChangeEvent e = stream.next();
                long id = (Long) e.key().get(SyntheticChangeStream.ID);
                if (e instanceof ChangeEvent.Upsert) {
                    live.add(id);
                } else {
                    live.remove(id);
                }
                byte[] value = e instanceof ChangeEvent.Delete d && d.tombstone() ? EnvelopeEncoder.tombstone()
                        : encoder.value(e, SyntheticChangeStream.SCHEMA, 1_700_000_000_000L + produced);
                world.connect.kafka().produce(topic, 0, new String(encoder.key(e, SyntheticChangeStream.SCHEMA), StandardCharsets.UTF_8),
                        value == null ? null : new String(value, StandardCharsets.UTF_8));
            }
        }
    }
}
