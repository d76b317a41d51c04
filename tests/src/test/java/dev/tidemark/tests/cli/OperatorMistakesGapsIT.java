package dev.tidemark.tests.cli;

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
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21: operator mistakes around gaps, one table of cases over one world. The world: a pipeline that captured
 * and applied 120 rows, stopped, whose Kafka topics were then deleted by hand (not by {@code tidemark drop}). Each
 * case runs one command as the operator would, and expects its exit code, the fragments of its one line (the way on
 * word for word, naming the pipeline file), no stack trace, and that nothing was created (the topics stay deleted).
 */
class OperatorMistakesGapsIT {
    record Case(String name, List<String> argv, int exit, List<String> says, List<String> neverSays, boolean oneErrorLine) {
    }

    @TempDir
    Path dir;

    @Test
    void topicsDeletedByHandWhileThePipelineWasStopped() throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String db = TestInfrastructure.newDatabase("mistakes_gaps");
        String bootstrap = TestInfrastructure.kafkaBootstrap();
        Path yaml = dir.resolve("pipeline.yaml");
        Files.writeString(yaml, String.join("\n", "name: " + db, "source:", "  url: " + pg.jdbcUrl(db), "  user: " + pg.user(),
                "  password: '" + pg.password() + "'", "  tables: [public.orders]", "  slot: slot_" + db, "  publication: pub_" + db,
                "kafka:", "  bootstrapServers: " + bootstrap, "  topicPrefix: " + db, "  partitions: 2", "target:",
                "  url: jdbc:sqlite:" + dir.resolve("target.db"), "stateDir: state", ""));
        PipelineConfig config = PipelineConfigParser.parse(yaml);
        try (Connection source = pg.connect(db); Statement s = source.createStatement()) {
            s.execute("CREATE TABLE public.orders (id int PRIMARY KEY, total int)");
            s.execute("INSERT INTO orders SELECT g, g FROM generate_series(1, 120) g");
            Sidecar first = Sidecar.start(config, true, true, new ReplayFrom.Stored());
            try {
                await("the pipeline applied the snapshot").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                        .failFast("pipeline failed", () -> first.failure().isPresent())
                        .until(() -> count("SELECT count(*) FROM orders") == 120 && count("SELECT sum(next_offset) FROM tidemark_offsets") >= 120);
            } finally {
                first.close();
            }
            try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", bootstrap))) {
                admin.deleteTopics(config.topics()).all().get(30, TimeUnit.SECONDS);
                await("topics deleted").atMost(Duration.ofSeconds(30))
                        .until(() -> admin.listTopics().names().get(10, TimeUnit.SECONDS).stream().noneMatch(Set.copyOf(config.topics())::contains));

                String file = yaml.toString();
                List<Case> cases = List.of(
                        new Case("run refuses before it creates anything", List.of("run", "--config", file), 3,
                                List.of("is past the end offset 0", "Nothing was created or changed",
                                        "`tidemark run --config " + file + " --accept-retention-gap`",
                                        "`tidemark snapshot --config " + file + " --table public.orders`"), List.of("<pipeline file>", "reconcile"),
                                true),
                        new Case("sink alone refuses the same way", List.of("sink", "--config", file), 3,
                                List.of("is past the end offset 0", "`tidemark sink --config " + file + " --accept-retention-gap`",
                                        "`tidemark snapshot --config " + file + " --table public.orders`"),
                                List.of("<pipeline file>", "reconcile"), true),
                        new Case("status shows it as a problem, never as lag 0", List.of("status", "--config", file), 3,
                                List.of("problem: topic " + config.topics().get(0) + " partition ", "is past the end offset 0",
                                        "`tidemark run --config " + file + " --accept-retention-gap`", "total lag: unknown",
                                        "`tidemark snapshot --config " + file + " --table public.orders`"),
                                List.of("total lag: 0", "does not exist yet", "reconcile"), false));
                for (Case c : cases) {
                    CliRun r = CliRun.run(c.argv().toArray(String[]::new));
                    String all = r.out() + r.err();
                    assertThat(r.exit()).as(c.name() + ": exit code; output:\n" + all).isEqualTo(c.exit());
                    assertThat(all).as(c.name()).contains(c.says());
                    c.neverSays().forEach(n -> assertThat(all).as(c.name()).doesNotContain(n));
                    if (c.oneErrorLine()) {
                        assertThat(r.err().lines().filter(l -> l.startsWith("tidemark: ")).toList()).as(c.name() + ": one line; output:\n" + all)
                                .hasSize(1);
                    }
                    assertThat(all).as(c.name() + ": no stack trace").doesNotContain("\tat ").doesNotContain("Caused by:");
                    assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).as(c.name() + ": nothing created")
                            .doesNotContainAnyElementsOf(config.topics());
                }
            }
        } finally {
            try (Connection source = pg.connect(db); Statement s = source.createStatement()) {
                s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = 'slot_" + db + "' AND NOT active");
            }
        }
    }

    private int count(String sql) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("target.db")); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (java.sql.SQLException e) {
            return 0;
        }
    }
}
