package dev.tidemark.tests;

import dev.tidemark.devenv.LocalKafka;
import dev.tidemark.devenv.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The one place integration tests get their servers from, started once per test JVM and stopped at its exit.
 * In order of preference:
 * <ol>
 *   <li>external servers named by environment variables: {@code TIDEMARK_TEST_PG_URL} (a
 *       {@code jdbc:postgresql://host:port/db} of a server with {@code wal_level=logical}; user and password from
 *       {@code TIDEMARK_TEST_PG_USER}/{@code TIDEMARK_TEST_PG_PASSWORD}) and {@code TIDEMARK_TEST_KAFKA} (bootstrap);</li>
 *   <li>Testcontainers, where a Docker engine answers;</li>
 *   <li>otherwise the same local launchers as {@code tidemark demo}: {@link LocalPostgres} and {@link LocalKafka}.</li>
 * </ol>
 * Each test gets its own database ({@link #newDatabase(String)}) in the shared cluster, so tests never see each
 * other's tables or replication slots.
 */
public final class TestInfrastructure {
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static PgServer pg;
    private static String kafka;

    private TestInfrastructure() {
    }

    /** A PostgreSQL server with logical decoding. */
    public record PgServer(String host, int port, String user, String password, String origin) {
        public String jdbcUrl(String database) {
            return "jdbc:postgresql://" + host + ":" + port + "/" + database;
        }

        public Connection connect(String database) throws SQLException {
            return DriverManager.getConnection(jdbcUrl(database), user, password);
        }
    }

    public static synchronized PgServer postgres() {
        if (pg == null) {
            pg = startPostgres();
        }
        return pg;
    }

    public static synchronized String kafkaBootstrap() {
        if (kafka == null) {
            kafka = startKafka();
        }
        return kafka;
    }

    /** Creates a fresh, uniquely named database and returns its name. */
    public static String newDatabase(String hint) throws SQLException {
        String name = ("it_" + hint + "_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet())
                .toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        try (Connection c = postgres().connect("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        return name;
    }

    private static PgServer startPostgres() {
        String url = System.getenv("TIDEMARK_TEST_PG_URL");
        if (url != null && !url.isBlank()) {
            java.net.URI u = java.net.URI.create(url.substring("jdbc:".length()));
            return new PgServer(u.getHost(), u.getPort() < 0 ? 5432 : u.getPort(), env("TIDEMARK_TEST_PG_USER", "postgres"),
                    env("TIDEMARK_TEST_PG_PASSWORD", ""), "external " + url);
        }
        if (dockerAvailable()) {
            PostgreSQLContainer c = new PostgreSQLContainer("postgres:16-alpine")
                    .withCommand("postgres", "-c", "wal_level=logical", "-c", "max_replication_slots=20", "-c", "max_wal_senders=20");
            c.start();
            Runtime.getRuntime().addShutdownHook(new Thread(c::stop));
            return new PgServer(c.getHost(), c.getMappedPort(5432), c.getUsername(), c.getPassword(), "testcontainers");
        }
        try {
            LocalPostgres local = LocalPostgres.start(Files.createTempDirectory("tidemark-it-pg-"));
            Runtime.getRuntime().addShutdownHook(new Thread(local::close));
            return new PgServer(local.host(), local.port(), local.user(), "", "local launcher " + local.version());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot create a temporary folder for PostgreSQL", e);
        }
    }

    private static String startKafka() {
        String bootstrap = System.getenv("TIDEMARK_TEST_KAFKA");
        if (bootstrap != null && !bootstrap.isBlank()) {
            return bootstrap;
        }
        if (dockerAvailable()) {
            KafkaContainer c = new KafkaContainer("apache/kafka:4.0.0");
            c.start();
            Runtime.getRuntime().addShutdownHook(new Thread(c::stop));
            return c.getBootstrapServers();
        }
        try {
            LocalKafka local = LocalKafka.start(Files.createTempDirectory("tidemark-it-kafka-"));
            Runtime.getRuntime().addShutdownHook(new Thread(local::close));
            return local.bootstrapServers();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot create a temporary folder for Kafka", e);
        }
    }

    private static boolean dockerAvailable() {
        if ("false".equalsIgnoreCase(System.getenv("TIDEMARK_TEST_DOCKER"))) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | Error e) {
            return false;
        }
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null ? fallback : v;
    }

    static Path tempDir(String prefix) throws java.io.IOException {
        return Files.createTempDirectory(prefix);
    }
}
