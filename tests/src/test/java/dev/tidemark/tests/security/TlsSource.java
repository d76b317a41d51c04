package dev.tidemark.tests.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.devenv.LocalPostgres;
import dev.tidemark.devenv.PostgresTls;
import dev.tidemark.devenv.ServerFolders;
import dev.tidemark.devenv.TlsCertificates;
import dev.tidemark.tests.ChildJvm;
import dev.tidemark.event.TableId;
import dev.tidemark.tests.TestInfrastructure;
import dev.tidemark.testkit.TableComparison;
import java.io.IOException;
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
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A PostgreSQL source that accepts TLS only ({@link LocalPostgres} with {@link PostgresTls}), its certificates and a
 * second, unrelated authority's, one database in it, and the {@code tidemark} child processes a test spawned against
 * it; {@link #close()} stops them all and deletes the folders.
 */
final class TlsSource implements AutoCloseable {
    static final String DATABASE = "shop";
    /** The password the client key is encrypted with: {@code sslpassword}, which no output may show. */
    static final String KEY_PASSWORD = "k3y-pw-9d1e";
    final Path base;
    final TlsCertificates certificates;
    /** Certificates of another authority: its CA did not sign the server's certificate. */
    final TlsCertificates otherAuthority;
    final LocalPostgres server;
    private final List<Process> processes = new ArrayList<>();
    /** Variables every spawned {@code tidemark} gets besides {@code IT_PG_PASSWORD} (secrets a pipeline file names). */
    final Map<String, String> environment = new java.util.HashMap<>();

    private TlsSource(Path base, TlsCertificates certificates, TlsCertificates otherAuthority, LocalPostgres server) {
        this.base = base;
        this.certificates = certificates;
        this.otherAuthority = otherAuthority;
        this.server = server;
    }

    /** A source demanding client certificates ({@code tls} made from {@link #certificates}, whose key is encrypted) or SCRAM passwords. */
    static TlsSource start(java.util.function.Function<TlsCertificates, PostgresTls> tls) throws IOException, SQLException {
        Path base = ServerFolders.newTemporary(null, "tidemark-tls-");
        TlsCertificates certificates = TlsCertificates.make(base.resolve("certs"), "127.0.0.1", "postgres", KEY_PASSWORD);
        TlsCertificates other = TlsCertificates.make(base.resolve("other-ca"), "127.0.0.1", "postgres");
        LocalPostgres server = LocalPostgres.start(base.resolve("pg"), tls.apply(certificates));
        TlsSource source = new TlsSource(base, certificates, other, server);
        try (Connection c = source.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + DATABASE);
        }
        return source;
    }

    /** The server's URL for {@code database} with the client's TLS parameters (see {@link LocalPostgres#jdbcUrl}). */
    String url(String database) {
        return server.jdbcUrl(database);
    }

    /** {@link #url} of {@link #DATABASE} with its query replaced by {@code parameters} and its host by {@code host}. */
    String urlWith(String host, String parameters) {
        return "jdbc:postgresql://" + host + ":" + server.port() + "/" + DATABASE + "?" + parameters;
    }

    Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(url(database), server.user(), server.password());
    }

    void sql(String... statements) throws SQLException {
        try (Connection c = connect(DATABASE); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /** The first column of the first row {@code sql} returns in {@link #DATABASE}, as text; null without a row. */
    String value(String sql) throws SQLException {
        try (Connection c = connect(DATABASE); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** A pipeline YAML in {@code dir} capturing {@code table} from {@code sourceUrl} into SQLite, over the suite's Kafka. */
    Path pipeline(Path dir, String name, String sourceUrl, String table) throws IOException {
        return pipeline(dir, name, sourceUrl, table, "jdbc:sqlite:" + dir.resolve(name + ".db"));
    }

    /** The same into {@code targetUrl}; a server target is written by the server's user. */
    Path pipeline(Path dir, String name, String sourceUrl, String table, String targetUrl) throws IOException {
        return pipeline(dir, name, sourceUrl, table, targetUrl, TestInfrastructure.kafkaBootstrap(), Map.of());
    }

    /**
     * The same over the Kafka at {@code bootstrap}, {@code kafkaProperties} as {@code kafka.properties} (each value
     * written as it is, single-quoted: a {@code ${NAME}} in one is read from the environment {@link #environment} sets).
     */
    Path pipeline(Path dir, String name, String sourceUrl, String table, String targetUrl, String bootstrap,
                  Map<String, String> kafkaProperties) throws IOException {
        StringBuilder properties = new StringBuilder();
        kafkaProperties.forEach((k, v) -> properties.append("\n    ").append(k).append(": '").append(v.replace("'", "''")).append("'"));
        Path yaml = dir.resolve(name + ".yaml");
        Files.writeString(yaml, String.join("\n",
                "name: " + name,
                "source:",
                "  url: '" + sourceUrl + "'",
                "  user: " + server.user(),
                "  password: ${IT_PG_PASSWORD:-}",
                "  tables: [" + table + "]",
                "  slot: slot_" + name,
                "  publication: pub_" + name,
                "kafka:",
                "  bootstrapServers: " + bootstrap,
                "  topicPrefix: " + name,
                kafkaProperties.isEmpty() ? "" : "  properties:" + properties,
                "  partitions: 2",
                "target:",
                "  url: '" + targetUrl + "'",
                targetUrl.startsWith("jdbc:sqlite:") ? "" : "  user: " + server.user() + "\n  password: ${IT_PG_PASSWORD:-}",
                "stateDir: state-" + name,
                ""));
        return yaml;
    }

    /** Spawns {@code tidemark ARGS…} as a child JVM with the SCRAM password in its environment, output into {@code log}. */
    Process spawn(Path log, String... args) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(ChildJvm.tidemark(List.of("-Xmx384m", "-XX:+UseSerialGC"), args));
        pb.environment().put("IT_PG_PASSWORD", server.password());
        pb.environment().putAll(environment);
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    /** Runs {@code tidemark ARGS…} to its end (90 s at most) and returns its exit code; output into {@code log}. */
    int runToEnd(Path log, String... args) throws Exception {
        try {
            return spawn(log, args).onExit().get(90, TimeUnit.SECONDS).exitValue();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("tidemark " + String.join(" ", args) + " did not end within 90 s:\n" + Files.readString(log), e);
        }
    }

    /** A connection to a target, opened anew for each comparison. */
    interface TargetConnection {
        Connection open() throws SQLException;
    }

    /** Waits (120 s at most) until {@code table} in the target equals the source's; fails if {@code run} ends first. */
    void awaitEqual(Process run, Path log, TableId table, TargetConnection target, String what) throws IOException {
        try {
            await(what + " reached the target").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                    .until(() -> !run.isAlive() || equal(table, target));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(what + " did not reach the target in 120 s; log:\n" + Files.readString(log), e);
        }
        assertThat(run.isAlive()).as("tidemark run still running; its output:\n" + Files.readString(log)).isTrue();
    }

    private boolean equal(TableId table, TargetConnection target) {
        try (Connection s = connect(DATABASE); Connection t = target.open()) {
            return TableComparison.compare(s, table, List.of("id"), t, table.table(), TableComparison.QuoteStyle.DOUBLE).equal();
        } catch (SQLException e) {
            return false; // target table not created yet
        }
    }

    /**
     * Runs {@code tidemark ARGS…} to its end; asserts a non-zero exit, exactly one {@code tidemark: } line and no stack
     * trace, and returns that line (the output is printed, for the report).
     */
    String refusal(Path log, String... args) throws Exception {
        int exit = runToEnd(log, args);
        String out = Files.readString(log);
        System.out.println("tidemark " + String.join(" ", args) + ", exit " + exit + ":\n" + out);
        assertThat(exit).as("exit; output:\n" + out).isNotZero();
        assertThat(out.lines().filter(l -> l.startsWith("\tat ") || l.startsWith("Caused by: ")).toList()).as(out).isEmpty();
        List<String> errors = errorLines(log);
        assertThat(errors).as(out).hasSize(1);
        return errors.get(0);
    }

    /** The lines of {@code log} that start with {@code tidemark: }. */
    static List<String> errorLines(Path log) throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.startsWith("tidemark: ")).toList();
    }

    /** Kills the spawned processes, waits for them, stops the server and deletes the folders. */
    @Override
    public void close() {
        processes.forEach(Process::destroyForcibly);
        processes.forEach(p -> p.onExit().join());
        server.close();
        dev.tidemark.process.Directories.deleteOrWarn(base, "TLS test folder");
    }
}
