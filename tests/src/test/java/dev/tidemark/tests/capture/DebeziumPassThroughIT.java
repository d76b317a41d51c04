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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14: {@code source.debezium} settings reach the engine for real — a {@code column.mask.with.4.chars} in the
 * pipeline file masks the card numbers of the snapshot and of streamed changes in the target, while the other columns
 * arrive as they are — and a setting Tidemark owns is refused before anything starts, one line naming the key (exit 2).
 */
class DebeziumPassThroughIT {
    @TempDir
    Path dir;

    @Test
    void aMaskingSettingFromThePipelineFileMasksTheColumnInTheTarget() throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String database = TestInfrastructure.newDatabase("passthrough");
        try (Connection source = pg.connect(database)) {
            sql(source, "CREATE TABLE public.customers (id int PRIMARY KEY, name text, card text)",
                    "INSERT INTO public.customers VALUES (1, 'Ada', '4111111111111111'), (2, 'Linus', '5500000000000004')");
            Path yaml = pipeline(pg, database, "    column.mask.with.4.chars: public.customers.card\n");
            PipelineConfig config = PipelineConfigParser.parse(yaml, Map.of("IT_PG_PASSWORD", pg.password())::get);
            assertThat(config.source().debezium()).containsEntry("column.mask.with.4.chars", "public.customers.card");
            try (Sidecar sidecar = Sidecar.start(config, true, true, new ReplayFrom.Stored())) {
                sql(source, "INSERT INTO public.customers VALUES (3, 'Grace', '340000000000009')",
                        "UPDATE public.customers SET name = 'Ada L.' WHERE id = 1");
                List<String> expected = List.of("1|Ada L.|****", "2|Linus|****", "3|Grace|****");
                await("target rows with masked cards").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                        .failFast("pipeline failed", () -> sidecar.failure().isPresent())
                        .until(() -> target(config), expected::equals);
                assertThat(sidecar.failure()).isEmpty();
            } finally {
                sql(source, "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '"
                        + config.source().slot() + "' AND NOT active");
            }
        }
    }

    @Test
    void aSettingTidemarkOwnsIsRefusedNamingTheKeyBeforeAnythingStarts() throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String database = TestInfrastructure.newDatabase("passthrough_refused");
        Path yaml = pipeline(pg, database, "    slot.drop.on.stop: true\n");
        CliRun r = CliRun.run("run", "--config", yaml.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(2);
        assertThat((r.out() + r.err()).lines().filter(l -> l.contains("source.debezium")).toList()).singleElement().asString()
                .contains("Refused configuration source.debezium.slot.drop.on.stop: Tidemark sets slot.drop.on.stop itself")
                .contains("tidemark drop");
        try (Connection source = pg.connect(database); Statement s = source.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'slot_" + database + "'")) {
            rs.next();
            assertThat(rs.getInt(1)).as("no slot created").isZero();
        }
    }

    private Path pipeline(TestInfrastructure.PgServer pg, String database, String debezium) throws Exception {
        Path yaml = dir.resolve("pipeline.yaml");
        Files.writeString(yaml, String.join("\n",
                "name: " + database,
                "source:",
                "  url: " + pg.jdbcUrl(database),
                "  user: " + pg.user(),
                "  password: ${IT_PG_PASSWORD:-" + pg.password() + "}",
                "  tables: [public.customers]",
                "  slot: slot_" + database,
                "  publication: pub_" + database,
                "  debezium:",
                debezium,
                "kafka:",
                "  bootstrapServers: " + TestInfrastructure.kafkaBootstrap(),
                "target:",
                "  url: jdbc:sqlite:target.db",
                "stateDir: state",
                ""));
        return yaml;
    }

    private static List<String> target(PipelineConfig config) {
        List<String> rows = new ArrayList<>();
        try (Connection t = DriverManager.getConnection(config.target().jdbcUrl()); Statement s = t.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, name, card FROM customers ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getInt(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
            }
        } catch (SQLException e) {
            rows.add("not readable yet: " + e.getMessage());
        }
        return rows;
    }

    private static void sql(Connection c, String... statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }
}
