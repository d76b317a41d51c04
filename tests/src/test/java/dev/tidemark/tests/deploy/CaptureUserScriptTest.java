package dev.tidemark.tests.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.PipelineConfigParser;
import dev.tidemark.connector.debezium.SourcePreflight;
import dev.tidemark.connector.debezium.TypeSupport;
import dev.tidemark.devenv.LocalPostgres;
import dev.tidemark.devenv.ServerFolders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The compose file's source init scripts ({@code deploy/postgres/init.sql}, then {@code 20-capture-user.sh}, as the
 * PostgreSQL image's entrypoint runs them) on a real throwaway PostgreSQL: the role {@code deploy/tidemark/pipeline.yaml}
 * captures as is no superuser, and capture's start checks ({@link SourcePreflight}, privileges included) accept it.
 */
@Timeout(180)
class CaptureUserScriptTest {
    private static final ComposeProject PROJECT = ComposeProject.find();
    private static Path folder;
    private static LocalPostgres postgres;

    @BeforeAll
    static void start() throws IOException {
        folder = ServerFolders.newTemporary(null, "tidemark-capture-user-");
        postgres = LocalPostgres.start(folder.resolve("pg"));
        run("psql", "-v", "ON_ERROR_STOP=1", "-U", "postgres", "-d", "postgres", "-f", "deploy/postgres/init.sql");
        run("sh", "deploy/postgres/20-capture-user.sh");
    }

    @AfterAll
    static void stop() throws IOException {
        if (postgres != null) {
            postgres.close();
        }
        Files.deleteIfExists(folder);
    }

    @Test
    void thePipelinesSourceUserIsNoSuperuser() throws Exception {
        PipelineConfig config = pipeline();
        try (Connection c = DriverManager.getConnection(postgres.jdbcUrl("postgres"), postgres.user(), "");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT rolsuper, rolreplication FROM pg_roles WHERE rolname = '"
                     + config.source().user() + "'")) {
            assertThat(rs.next()).as("role %s exists", config.source().user()).isTrue();
            assertThat(rs.getBoolean(1)).as("superuser").isFalse();
            assertThat(rs.getBoolean(2)).as("REPLICATION").isTrue();
        }
    }

    @Test
    void captureStartChecksAcceptTheUser() throws Exception {
        PipelineConfig config = pipeline();
        assertThatCode(() -> SourcePreflight.check(config.source(), TypeSupport.Target.POSTGRESQL)).doesNotThrowAnyException();
    }

    /** deploy/tidemark/pipeline.yaml with its source URL pointed at the throwaway server instead of {@code postgres:5432}. */
    private static PipelineConfig pipeline() throws IOException {
        String yaml = Files.readString(PROJECT.root().resolve("deploy/tidemark/pipeline.yaml"))
                .replace("//postgres:5432/", "//" + postgres.host() + ":" + postgres.port() + "/");
        Map<String, String> env = Map.of("CAPTURE_PASSWORD", "unused-trust", "TARGET_PASSWORD", "unused");
        return PipelineConfigParser.parse(yaml, "pipeline.yaml", folder, env::get);
    }

    /** Runs a command in the repository root as the image's entrypoint would, against the throwaway server. */
    private static void run(String... command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(PROJECT.root().toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("PATH", postgres.binDir() + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("PGHOST", postgres.host());
        env.put("PGPORT", Integer.toString(postgres.port()));
        env.put("POSTGRES_USER", "postgres");
        env.put("POSTGRES_DB", "postgres");
        env.put("CAPTURE_PASSWORD", "example-capture");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            assertThat(p.waitFor()).as("%s:%n%s", String.join(" ", command), out).isZero();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
