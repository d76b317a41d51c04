package dev.tidemark.tests.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import dev.tidemark.reconcile.ReconcileResult;
import dev.tidemark.tests.TestInfrastructure;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.Test;

/**
 * Users who already run Debezium on Kafka Connect can adopt the sink alone: Debezium's own PostgreSQL connector runs
 * on Connect's {@code EmbeddedConnectCluster} with Connect's default converter settings ({@code JsonConverter}, schemas
 * on, no Tidemark settings: adaptive time precision, precise decimals, no source-type propagation; only
 * {@code value.converter.replace.null.with.default=false}, without which Kafka's converter writes a column's default
 * where the row holds NULL, see docs/connect.md), capturing a real
 * table (snapshot, then inserts, updates and deletes); the Tidemark sink plugin consumes its topic with 2 tasks
 * through a {@code JsonConverter} (its values written back to the envelope) into a PostgreSQL target; reconcile finds
 * 0 differences. The table holds the types whose encoding depends on those defaults: {@code time(0)} and
 * {@code timestamp(3)} (millisecond encodings under {@code adaptive}), a column with a default that is sometimes NULL
 * (with Kafka's default converter setting these NULLs arrive as the default), numeric, date, timestamptz,
 * bytea, jsonb, uuid, text.
 */
class DebeziumOnConnectIT {
    private static final TableId TABLE = new TableId("public", "accounts");
    private static final String SINK = "tidemark-accounts";
    private static final String DEBEZIUM = "debezium-accounts";
    private static final String JSON = "org.apache.kafka.connect.json.JsonConverter";

    @Test
    void theSinkAppliesWhatDebeziumOnConnectWritesWithItsDefaults() throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String sourceDb = TestInfrastructure.newDatabase("connect_dbz");
        String targetDb = TestInfrastructure.newDatabase("connect_dbz_tgt");
        String prefix = "dbz" + Math.abs(sourceDb.hashCode());
        String slot = "dbz_" + sourceDb;
        try (ConnectWorld world = new ConnectWorld("tidemark-debezium", 1); Connection source = pg.connect(sourceDb)) {
            sql(source, "CREATE TABLE accounts (id bigint PRIMARY KEY, name text, balance numeric(12,2), opened date,"
                    + " updated_at timestamptz(6), last_login timestamp(3), wake time(0), active boolean DEFAULT true,"
                    + " avatar bytea, prefs jsonb, ref uuid)");
            for (int i = 1; i <= 50; i++) {
                insert(source, i);
            }
            world.connect.configureConnector(DEBEZIUM, debezium(pg, sourceDb, prefix, slot));
            world.connect.assertions().assertConnectorAndExactlyNumTasksAreRunning(DEBEZIUM, 1, "Debezium's connector did not start");
            String topic = prefix + ".public.accounts";
            await("Debezium on Connect creating topic " + topic).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                    .until(() -> world.connect.kafka().describeTopics(topic).get(topic).isPresent());

            Map<String, String> sink = ConnectWorld.sinkConfig(topic, 2, pg, targetDb, JSON);
            sink.put("value.converter.replace.null.with.default", "false");
            world.connect.configureConnector(SINK, sink);
            world.connect.assertions().assertConnectorAndExactlyNumTasksAreRunning(SINK, 2, "the sink plugin's 2 tasks did not start");

            for (int i = 51; i <= 120; i++) {
                insert(source, i);
            }
            sql(source, "UPDATE accounts SET balance = balance + 0.01, name = name || ' (renamed)', updated_at = now() WHERE id % 3 = 0",
                    "UPDATE accounts SET active = NULL, prefs = NULL WHERE id % 7 = 0",
                    "UPDATE accounts SET wake = '23:59:59', last_login = '2026-12-31 23:59:59.999' WHERE id % 5 = 0",
                    "DELETE FROM accounts WHERE id % 4 = 0",
                    "UPDATE accounts SET id = id + 1000 WHERE id = 1");

            ReconcileResult result = ConnectWorld.awaitNoDifferences(pg, sourceDb, TABLE, targetDb);
            ConnectorStateInfo status = world.connect.connectorStatus(SINK);
            assertThat(status.tasks()).as("sink tasks " + status).allSatisfy(t -> assertThat(t.state()).isEqualTo("RUNNING"));
            assertThat(result.sourceRows()).isEqualTo(120 - 30);
            ConnectWorld.assertNoDifferencesAndRecord("DebeziumOnConnectIT (Debezium PostgreSQL connector on Connect, its defaults + value.converter.replace.null.with.default=false)",
                    result, "reconcile-debezium.txt");
            world.connect.deleteConnector(DEBEZIUM);
            world.connect.deleteConnector(SINK);
        } finally {
            try (Connection c = pg.connect(sourceDb); PreparedStatement s = c.prepareStatement(
                    "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ? AND NOT active")) {
                s.setString(1, slot);
                s.execute();
            }
        }
    }

    /** Debezium's PostgreSQL connector with Connect's defaults: only connection, slot, table and topic creation set. */
    private static Map<String, String> debezium(TestInfrastructure.PgServer pg, String db, String prefix, String slot) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        c.put("tasks.max", "1");
        c.put("database.hostname", pg.host());
        c.put("database.port", String.valueOf(pg.port()));
        c.put("database.user", pg.user());
        c.put("database.password", pg.password());
        c.put("database.dbname", db);
        c.put("topic.prefix", prefix);
        c.put("plugin.name", "pgoutput");
        c.put("slot.name", slot);
        c.put("publication.name", "pub_" + slot);
        c.put("publication.autocreate.mode", "filtered");
        c.put("table.include.list", "public.accounts");
        c.put("key.converter", JSON);
        c.put("value.converter", JSON);
        // The one setting that is needed: with Kafka's default (true) JsonConverter itself writes a column's DEFAULT
        // where the row holds NULL, on Debezium's side, before any consumer; no sink can tell the two apart.
        c.put("value.converter.replace.null.with.default", "false");
        c.put("topic.creation.default.replication.factor", "1");
        c.put("topic.creation.default.partitions", "2");
        return c;
    }

    private static void insert(Connection c, int id) throws Exception {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO accounts (id, name, balance, opened, updated_at, last_login, wake,"
                + " active, avatar, prefs, ref) VALUES (?, ?, ?, DATE '2026-01-01' + ?, now(), TIMESTAMP '2026-03-01 10:15:30.123' + ? * INTERVAL '1 hour',"
                + " TIME '06:30:00' + ? * INTERVAL '1 minute', ?, ?, CAST(? AS jsonb), CAST(? AS uuid))")) {
            s.setLong(1, id);
            s.setString(2, "account 'é' " + id);
            s.setBigDecimal(3, new java.math.BigDecimal(id * 101).movePointLeft(2));
            s.setInt(4, id);
            s.setInt(5, id);
            s.setInt(6, id);
            if (id % 6 == 0) {
                s.setNull(7, java.sql.Types.BOOLEAN);
            } else {
                s.setBoolean(7, id % 2 == 0);
            }
            s.setBytes(8, new byte[] {(byte) id, 0, (byte) 0xff});
            s.setString(9, "{\"tier\": " + (id % 3) + ", \"tags\": [\"a\", \"b\"]}");
            s.setString(10, String.format("00000000-0000-0000-0000-%012d", id));
            s.executeUpdate();
        }
    }

    private static void sql(Connection c, String... statements) throws Exception {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }
}
