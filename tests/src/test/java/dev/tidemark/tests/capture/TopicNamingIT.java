package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.PipelineConfigParser;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.tests.CliRun;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Topic names for any table name (issue 21, item 10): a table whose name is no valid topic name ({@code "Order Items"})
 * is captured end to end on its escaped topic, which {@code drop} finds by the same rule; two schemas' {@code orders}
 * are captured by one capture onto topics of their own (one named in {@code kafka.topics}), each applied by its sink.
 */
class TopicNamingIT {
    @TempDir
    Path dir;

    @Test
    void aTableWhoseNameIsNoTopicNameIsCapturedEndToEndAndDropFindsItsTopic() throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String db = TestInfrastructure.newDatabase("topic_names");
        try (Connection source = pg.connect(db)) {
            sql(source, "CREATE TABLE public.\"Order Items\" (id int PRIMARY KEY, note text)",
                    "INSERT INTO public.\"Order Items\" VALUES (1, 'one'), (2, 'two')");
            Path file = dir.resolve("p.yaml");
            Files.writeString(file, "name: " + db + "\nsource:\n  url: '" + pg.jdbcUrl(db) + "'\n  user: " + pg.user() + "\n  password: '"
                    + pg.password() + "'\n  slot: slot_" + db + "\n  tables: ['public.Order Items']\nkafka:\n  bootstrapServers: "
                    + TestInfrastructure.kafkaBootstrap() + "\ntarget:\n  url: 'jdbc:sqlite:t.db'\nstateDir: state\n");
            PipelineConfig config = PipelineConfigParser.parse(file);
            String topic = db + ".public.Order-20Items";
            assertThat(config.topics()).containsExactly(topic);
            try (Sidecar s = Sidecar.start(config, true, true, new ReplayFrom.Stored());
                 Connection target = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("t.db"))) {
                awaitRows(s, target, "SELECT id, note FROM \"Order Items\" ORDER BY id", List.of("1|one", "2|two"));
                sql(source, "UPDATE public.\"Order Items\" SET note = 'uno' WHERE id = 1", "INSERT INTO public.\"Order Items\" VALUES (3, 'three')");
                awaitRows(s, target, "SELECT id, note FROM \"Order Items\" ORDER BY id", List.of("1|uno", "2|two", "3|three"));
            }
            assertThat(topics()).contains(topic);
            CliRun drop = CliRun.run("drop", "-c", file.toString(), "--yes", "--topics");
            assertThat(drop.exit()).as("drop output:%n%s%s", drop.out(), drop.err()).isZero();
            assertThat(drop.out() + drop.err()).contains("deleted topic " + topic);
            await("topic " + topic + " deleted").atMost(Duration.ofSeconds(30)).until(() -> !topics().contains(topic));
        }
    }

    @Test
    void twoSchemasOrdersAreCapturedTogetherOntoTopicsOfTheirOwn() throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String db = TestInfrastructure.newDatabase("two_orders");
        TableId publicOrders = new TableId("public", "orders");
        TableId salesOrders = new TableId("sales", "orders");
        try (Connection source = pg.connect(db)) {
            sql(source, "CREATE SCHEMA sales", "CREATE TABLE public.orders (id int PRIMARY KEY, note text)",
                    "CREATE TABLE sales.orders (id int PRIMARY KEY, note text)",
                    "INSERT INTO public.orders VALUES (1, 'public one')", "INSERT INTO sales.orders VALUES (1, 'sales one'), (2, 'sales two')");
            String salesTopic = db + "-sales-orders";
            PipelineConfig capture = config(db, db, List.of(publicOrders, salesOrders), Map.of(salesOrders, salesTopic), "unused.db");
            assertThat(capture.topics()).containsExactly(db + ".public.orders", salesTopic);
            PipelineConfig publicSink = config(db + "_public", db, List.of(publicOrders), Map.of(), "public.db");
            PipelineConfig salesSink = config(db + "_sales", db, List.of(salesOrders), Map.of(salesOrders, salesTopic), "sales.db");
            try (Sidecar c = Sidecar.start(capture, true, false, new ReplayFrom.Stored());
                 Sidecar a = Sidecar.start(publicSink, false, true, new ReplayFrom.Stored());
                 Sidecar b = Sidecar.start(salesSink, false, true, new ReplayFrom.Stored());
                 Connection pt = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("public.db"));
                 Connection st = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("sales.db"))) {
                awaitRows(c, pt, "SELECT id, note FROM orders ORDER BY id", List.of("1|public one"));
                awaitRows(c, st, "SELECT id, note FROM orders ORDER BY id", List.of("1|sales one", "2|sales two"));
                sql(source, "INSERT INTO sales.orders VALUES (3, 'sales three')", "UPDATE public.orders SET note = 'public uno'");
                awaitRows(a, pt, "SELECT id, note FROM orders ORDER BY id", List.of("1|public uno"));
                awaitRows(b, st, "SELECT id, note FROM orders ORDER BY id", List.of("1|sales one", "2|sales two", "3|sales three"));
                assertThat(c.failure()).isEmpty();
            }
        } finally {
            try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
                s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = 'slot_" + db + "' AND NOT active");
            }
        }
    }

    private PipelineConfig config(String name, String db, List<TableId> tables, Map<TableId, String> topics, String targetFile) {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        return new PipelineConfig(name,
                new dev.tidemark.connector.config.SourceConfig(pg.jdbcUrl(db), pg.user(), dev.tidemark.connector.config.Secret.of(pg.password()),
                        "slot_" + db, "pub_" + db, tables, true, Duration.ofMillis(10)),
                new KafkaConfig(TestInfrastructure.kafkaBootstrap(), db, 1, (short) 1, Map.of(), topics),
                new dev.tidemark.connector.config.TargetConfig("jdbc:sqlite:" + dir.resolve(targetFile), null,
                        dev.tidemark.connector.config.Secret.empty(), 500, dev.tidemark.sink.jdbc.SinkOptions.DEFAULT_POSITION_COLUMN, false),
                dir.resolve("state-" + name));
    }

    private static Set<String> topics() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", TestInfrastructure.kafkaBootstrap()))) {
            return admin.listTopics().names().get();
        }
    }

    private static void awaitRows(Sidecar sidecar, Connection target, String sql, List<String> expected) {
        await("target rows " + expected).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .failFast("pipeline failed", () -> sidecar.failure().isPresent())
                .until(() -> {
                    try {
                        return rows(target, sql);
                    } catch (SQLException e) {
                        return List.of(); // table not created yet
                    }
                }, r -> r.equals(expected));
    }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1) + "|" + rs.getString(2));
            }
        }
        return out;
    }

    private static void sql(Connection c, String... statements) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String q : statements) {
                st.execute(q);
            }
        }
    }
}
