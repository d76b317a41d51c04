package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.PipelineConfigParser;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.tests.CliRun;
import dev.tidemark.tests.TestInfrastructure;
import dev.tidemark.tests.sink.TargetDatabase;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Topic names for any table name (issue 21, item 10): a table whose name is no valid topic name ({@code "Order Items"})
 * is captured end to end on its escaped topic, which {@code drop} finds by the same rule; two schemas' {@code orders}
 * are captured by one pipeline onto topics of their own (one named in {@code kafka.topics}) into target tables of their
 * own (one named in {@code target.tables}, as the refusal without it advises), into SQLite and into PostgreSQL.
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
                sql(source, "UPDATE public.\"Order Items\" SET note = 'uno' WHERE id = 1", "INSERT INTO public.\"Order Items\" VALUES (3, 'three')",
                        "DELETE FROM public.\"Order Items\" WHERE id = 2");
                awaitRows(s, target, "SELECT id, note FROM \"Order Items\" ORDER BY id", List.of("1|uno", "3|three"));
            }
            assertThat(topics()).contains(topic);
            CliRun drop = CliRun.run("drop", "-c", file.toString(), "--yes", "--topics");
            assertThat(drop.exit()).as("drop output:%n%s%s", drop.out(), drop.err()).isZero();
            assertThat(drop.out() + drop.err()).contains("deleted topic " + topic);
            await("topic " + topic + " deleted").atMost(Duration.ofSeconds(30)).until(() -> !topics().contains(topic));
        }
    }

    @Test
    void twoSchemasOrdersAreCapturedByOnePipelineIntoASqliteTargetAfterTheRefusalsAdvice() throws Exception {
        try (TargetDatabase target = TargetDatabase.sqlite()) {
            twoSchemasOrdersInOnePipeline(target, "two_orders_sqlite");
        }
    }

    @Test
    void twoSchemasOrdersAreCapturedByOnePipelineIntoAPostgresTargetAfterTheRefusalsAdvice() throws Exception {
        try (TargetDatabase target = TargetDatabase.postgres()) {
            twoSchemasOrdersInOnePipeline(target, "two_orders_pg");
        }
    }

    /**
     * One pipeline captures {@code public.orders} and {@code sales.orders} (same columns, overlapping keys; the sales
     * topic named in {@code kafka.topics}): refused first, naming the mapping that gives {@code sales.orders} a target
     * table of its own; with that mapping written into the file as printed, both are captured, changed, reconciled
     * equal, a row removed from {@code sales_orders} is repaired there alone, and {@code drop} finds both target tables'
     * positions.
     */
    private void twoSchemasOrdersInOnePipeline(TargetDatabase target, String hint) throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String db = TestInfrastructure.newDatabase(hint);
        try (Connection source = pg.connect(db)) {
            sql(source, "CREATE SCHEMA sales", "CREATE TABLE public.orders (id int PRIMARY KEY, note text)",
                    "CREATE TABLE sales.orders (id int PRIMARY KEY, note text)",
                    "INSERT INTO public.orders VALUES (1, 'public one'), (2, 'public two')",
                    "INSERT INTO sales.orders VALUES (1, 'sales one'), (2, 'sales two')");
            String salesTopic = db + "-sales-orders";
            Path file = dir.resolve("p.yaml");
            String head = "name: " + db + "\nsource:\n  url: '" + pg.jdbcUrl(db) + "'\n  user: " + pg.user() + "\n  password: '"
                    + pg.password() + "'\n  slot: slot_" + db + "\n  tables: [public.orders, sales.orders]\nkafka:\n  bootstrapServers: "
                    + TestInfrastructure.kafkaBootstrap() + "\n  topics: {sales.orders: " + salesTopic + "}\ntarget:\n  url: '"
                    + target.jdbcUrl() + "'\n" + (target.properties().containsKey("user") ? "  user: " + target.properties().getProperty("user") + "\n" : "");
            Files.writeString(file, head + "stateDir: state\n");
            CliRun refused = CliRun.run("run", "-c", file.toString());
            assertThat(refused.exit()).as("run output:%n%s%s", refused.out(), refused.err()).isEqualTo(2);
            Matcher advice = Pattern.compile("Invalid value \\[public\\.orders, sales\\.orders] for configuration source\\.tables: "
                    + "public\\.orders and sales\\.orders would all be written to target table orders and their rows would merge; "
                    + "add target\\.tables: (\\{[^}\\n]*})$", Pattern.MULTILINE).matcher(refused.err());
            assertThat(advice.find()).as("the refusal names the mapping as its way out:%n%s", refused.err()).isTrue();
            assertThat(advice.group(1)).isEqualTo("{sales.orders: sales_orders}");
            Files.writeString(file, head + "  tables: " + advice.group(1) + "\nstateDir: state\n");

            PipelineConfig config = PipelineConfigParser.parse(file);
            assertThat(config.topics()).containsExactly(db + ".public.orders", salesTopic);
            try (Sidecar s = Sidecar.start(config, true, true, new ReplayFrom.Stored()); Connection t = target.connect()) {
                awaitRows(s, t, "SELECT id, note FROM orders ORDER BY id", List.of("1|public one", "2|public two"));
                awaitRows(s, t, "SELECT id, note FROM sales_orders ORDER BY id", List.of("1|sales one", "2|sales two"));
                sql(source, "UPDATE public.orders SET note = 'public uno' WHERE id = 1", "DELETE FROM public.orders WHERE id = 2",
                        "INSERT INTO public.orders VALUES (3, 'public three')", "UPDATE sales.orders SET note = 'sales dos' WHERE id = 2",
                        "DELETE FROM sales.orders WHERE id = 1", "INSERT INTO sales.orders VALUES (3, 'sales three')");
                awaitRows(s, t, "SELECT id, note FROM orders ORDER BY id", List.of("1|public uno", "3|public three"));
                awaitRows(s, t, "SELECT id, note FROM sales_orders ORDER BY id", List.of("2|sales dos", "3|sales three"));
                assertThat(s.failure()).isEmpty();
            }
            CliRun reconcile = CliRun.run("reconcile", "-c", file.toString(), "--no-progress");
            assertThat(reconcile.exit()).as("reconcile output:%n%s%s", reconcile.out(), reconcile.err()).isZero();
            assertThat(reconcile.out()).contains("reconcile public.orders → orders: source 2 rows, target 2 rows")
                    .contains("reconcile sales.orders → sales_orders: source 2 rows, target 2 rows");
            try (Connection t = target.connect(); Statement st = t.createStatement()) {
                st.executeUpdate("DELETE FROM sales_orders WHERE id = 3");
            }
            CliRun repair = CliRun.run("reconcile", "-c", file.toString(), "--table", "sales.orders", "--repair", "--apply", "--settle", "0s",
                    "--no-progress");
            assertThat(repair.exit()).as("repair output:%n%s%s", repair.out(), repair.err()).isZero();
            assertThat(repair.out()).contains("repaired sales_orders: 1 upserted, 0 deleted")
                    .contains("reconcile sales.orders → sales_orders: source 2 rows, target 2 rows");
            try (Connection t = target.connect()) {
                assertThat(rows(t, "SELECT id, note FROM orders ORDER BY id")).containsExactly("1|public uno", "3|public three");
                assertThat(rows(t, "SELECT id, note FROM sales_orders ORDER BY id")).containsExactly("2|sales dos", "3|sales three");
            }
            CliRun drop = CliRun.run("drop", "-c", file.toString(), "--yes", "--topics");
            assertThat(drop.exit()).as("drop output:%n%s%s", drop.out(), drop.err()).isZero();
            assertThat(drop.out() + drop.err()).contains("deleted topic " + salesTopic).contains("deleted table positions of orders in target")
                    .contains("deleted table positions of sales_orders in target");
        } finally {
            try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
                s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = 'slot_" + db + "' AND NOT active");
            }
        }
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
