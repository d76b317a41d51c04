package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.PipelineConfigParser;
import dev.tidemark.connector.pipeline.Sidecar;
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
