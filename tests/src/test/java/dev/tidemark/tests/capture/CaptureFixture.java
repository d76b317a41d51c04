package dev.tidemark.tests.capture;

import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.testkit.TableComparison;
import dev.tidemark.event.TableId;
import dev.tidemark.tests.ChildJvm;
import dev.tidemark.tests.sink.TargetDatabase;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.tests.KafkaTopics;
import dev.tidemark.tests.TestInfrastructure;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * One capture scenario's world: its own source database, slot, topic prefix, state folder and SQLite target; the
 * sidecars it started in this JVM and the {@code tidemark} child processes it spawned are stopped by {@link #close()}.
 */
final class CaptureFixture implements AutoCloseable {
    final TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
    final String bootstrap = TestInfrastructure.kafkaBootstrap();
    final String database;
    final String name;
    final Path dir;
    final Connection source;
    final List<TableId> tables;
    private final List<Sidecar> started = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    /** A server target ({@link TargetDatabase#postgres()}, {@link TargetDatabase#mariadb()}), or null for SQLite in {@link #dir}. */
    private final TargetDatabase target;

    CaptureFixture(String hint, Path dir, List<TableId> tables) throws SQLException {
        this(hint, dir, tables, null);
    }

    /** The same with {@code target} (closed by the caller) instead of the SQLite target. */
    CaptureFixture(String hint, Path dir, List<TableId> tables, TargetDatabase target) throws SQLException {
        this.target = target;
        this.database = TestInfrastructure.newDatabase(hint);
        this.name = database;
        this.dir = dir;
        this.tables = List.copyOf(tables);
        this.source = pg.connect(database);
    }

    void sql(String... statements) throws SQLException {
        try (Statement s = source.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    String slot() {
        return "slot_" + name;
    }

    String targetUrl() {
        return target == null ? "jdbc:sqlite:" + dir.resolve("target.db") : target.jdbcUrl();
    }

    private String targetUser() {
        return target == null ? null : target.properties().getProperty("user");
    }

    Connection connectTarget() throws SQLException {
        return target == null ? DriverManager.getConnection(targetUrl()) : target.connect();
    }

    private TableComparison.QuoteStyle targetQuotes() {
        return target == null ? TableComparison.QuoteStyle.DOUBLE : target.quotes();
    }

    Path offsetsFile() {
        return dir.resolve("state").resolve(name + ".offsets");
    }

    PipelineConfig config() {
        return config(Map.of());
    }

    /** {@link #config()} with extra Kafka client properties ({@code kafka.properties}). */
    PipelineConfig config(Map<String, String> kafkaProperties) {
        return config(tables, kafkaProperties);
    }

    /** {@link #config()} capturing {@code captured} instead of the fixture's tables. */
    PipelineConfig config(List<TableId> captured, Map<String, String> kafkaProperties) {
        return new PipelineConfig(name,
                new SourceConfig(pg.jdbcUrl(database), pg.user(), Secret.of(pg.password()), slot(), "pub_" + name,
                        captured, true, Duration.ofMillis(10)),
                new KafkaConfig(bootstrap, name, 2, (short) 1, kafkaProperties),
                new TargetConfig(targetUrl(), targetUser(), Secret.empty(), 500, SinkOptions.DEFAULT_POSITION_COLUMN, false),
                dir.resolve("state"));
    }

    Sidecar start(boolean capture, boolean sink) {
        Sidecar s = Sidecar.start(config(), capture, sink, new ReplayFrom.Stored());
        started.add(s);
        return s;
    }

    /** Starts capture and sink of {@code config} in this JVM; stopped by {@link #close()} unless closed before. */
    Sidecar start(PipelineConfig config) {
        Sidecar s = Sidecar.start(config, true, true, new ReplayFrom.Stored());
        started.add(s);
        return s;
    }

    /** The same pipeline as a YAML file, for the {@code tidemark} command; the password comes from the environment. */
    Path writeYaml() throws IOException {
        Path yaml = dir.resolve("pipeline.yaml");
        StringBuilder tableList = new StringBuilder();
        for (TableId t : tables) {
            tableList.append(tableList.isEmpty() ? "" : ", ").append(t);
        }
        Files.writeString(yaml, String.join("\n",
                "name: " + name,
                "source:",
                "  url: " + pg.jdbcUrl(database),
                "  user: " + pg.user(),
                "  password: ${IT_PG_PASSWORD:-}",
                "  tables: [" + tableList + "]",
                "  slot: " + slot(),
                "  publication: pub_" + name,
                "kafka:",
                "  bootstrapServers: " + bootstrap,
                "  topicPrefix: " + name,
                "  partitions: 2",
                "  properties:",
                "    group.instance.id: " + name + "-sink",
                "    session.timeout.ms: 10000",
                "target:",
                "  url: " + targetUrl(),
                targetUser() == null ? "" : "  user: " + targetUser(),
                "  batchSize: 500",
                "stateDir: state",
                ""));
        return yaml;
    }

    /** Spawns {@code tidemark ARGS…} as a child JVM, output (stdout and stderr together) into {@code log}. */
    Process spawn(Path log, String... args) throws IOException {
        List<String> cmd = ChildJvm.tidemark(List.of("-Xmx384m", "-XX:+UseSerialGC"), args);
        return start(new ProcessBuilder(cmd), log);
    }

    /**
     * Starts {@code ./tidemark ARGS…} through the project's launcher script, with the JVM options and heap a user gets
     * by default (no {@code TIDEMARK_HEAP} or {@code TIDEMARK_JAVA_OPTS}); output into {@code log}. The launcher runs
     * the jar {@code mvn verify} packaged before this module's tests.
     */
    Process spawnLauncher(Path log, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of("..", "tidemark").toAbsolutePath().normalize().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("TIDEMARK_HEAP");
        pb.environment().remove("TIDEMARK_JAVA_OPTS");
        return start(pb, log);
    }

    /** Starts {@code pb} with the source password in the environment and its output into {@code log}; closed by {@link #close()}. */
    private Process start(ProcessBuilder pb, Path log) throws IOException {
        pb.environment().put("IT_PG_PASSWORD", pg.password());
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    /** Runs {@code tidemark ARGS…} to its end (60 s at most) and returns its exit code; output into {@code log}. */
    int runToEnd(Path log, String... args) throws Exception {
        Process p = spawn(log, args);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("tidemark " + String.join(" ", args) + " did not end within 60 s:\n" + Files.readString(log));
        }
        return p.exitValue();
    }

    /**
     * Waits for a spawned {@code tidemark} to exit by itself and returns its exit code; if it is still running after
     * {@code atMost}, fails with {@code whatIfRunning} (called then, e.g. to describe the target) and the log's tail.
     */
    int awaitExit(Process p, Path log, Duration atMost, java.util.concurrent.Callable<String> whatIfRunning) throws Exception {
        try {
            await("tidemark exits by itself").atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> !p.isAlive());
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            String state = whatIfRunning.call();
            p.destroyForcibly();
            throw new AssertionError("tidemark was still running after " + atMost.toSeconds() + " s: " + state
                    + "\n--- last lines of " + log + " ---\n" + tail(log), e);
        }
        return p.exitValue();
    }

    /** The lines of a log that the command printed as its own error ({@code tidemark: …}). */
    static List<String> errorLines(Path log) throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.startsWith("tidemark: ")).toList();
    }

    /**
     * What the library detail files named by {@code log}'s error lines ({@code (library detail: PATH)}) hold, for an
     * assertion's description: a stop line that names one tells a library logged an error at that stop.
     */
    static String libraryDetails(Path log) throws IOException {
        StringBuilder out = new StringBuilder();
        for (String line : errorLines(log)) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\(library detail: ([^)]+)\\)").matcher(line);
            while (m.find()) {
                Path detail = Path.of(m.group(1));
                out.append("\n").append(detail).append(":\n").append(Files.exists(detail) ? Files.readString(detail) : "(absent)");
            }
        }
        return out.toString();
    }

    /**
     * {@code line} without the note naming the library detail file ({@code (library detail: PATH)}), which the line
     * gains when a library (the Kafka clients, Debezium, a driver) logged an error or a stack trace while the command
     * ran: for a stop whose words are asserted while such noise depends on timing (a kill, a broker's answer).
     */
    static String withoutLibraryDetail(String line) {
        return line.replaceFirst(" \\(library detail: [^)]+\\.detail\\.log\\)$", "");
    }

    /** Lines of a log that belong to a Java stack trace. */
    static List<String> stackTraceLines(Path log) throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.startsWith("\tat ") || l.startsWith("Caused by: ")).toList();
    }

    /** True when every captured table of the target equals the source by key and row checksum. */
    boolean targetEqualsSource(String... keyColumns) {
        return targetEqualsSource(tables, keyColumns);
    }

    /** True when each of {@code compared} (source tables, by name in the target) equals the source by key and row checksum. */
    boolean targetEqualsSource(List<TableId> compared, String... keyColumns) {
        try (Connection t = connectTarget()) {
            for (TableId table : compared) {
                if (!TableComparison.compare(source, table, List.of(keyColumns), t, table.table(),
                        targetQuotes()).equal()) {
                    return false;
                }
            }
            return true;
        } catch (SQLException e) {
            return false; // target table not created yet
        }
    }

    String compareSummary(String... keyColumns) throws SQLException {
        return compareSummary(tables, keyColumns);
    }

    String compareSummary(List<TableId> compared, String... keyColumns) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (Connection t = connectTarget()) {
            for (TableId table : compared) {
                out.append(table).append(": ").append(TableComparison.compare(source, table, List.of(keyColumns), t, table.table(),
                        targetQuotes())).append('\n');
            }
        }
        return out.toString();
    }

    void awaitTargetEqual(Sidecar sidecar, String... keyColumns) {
        await("target equal to source " + tables).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .failFast("pipeline failed", () -> sidecar.failure().isPresent())
                .until(() -> targetEqualsSource(keyColumns));
    }

    /** The first column of each row {@code sql} returns from the target, as text. */
    List<String> targetColumn(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection t = connectTarget(); Statement st = t.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** The slot's {@code confirmed_flush_lsn}, or null when the slot does not exist. */
    String slotConfirmedLsn() throws SQLException {
        try (Statement s = source.createStatement();
             ResultSet rs = s.executeQuery("SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = '" + slot() + "'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** The source's current WAL position ({@code pg_current_wal_lsn()}). */
    String walLsn() throws SQLException {
        try (Statement s = source.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** True when the slot has confirmed {@code lsn}: capture stored offsets at or past it. */
    boolean slotConfirmedPast(String lsn) throws SQLException {
        try (java.sql.PreparedStatement ps = source.prepareStatement("SELECT confirmed_flush_lsn >= ?::pg_lsn FROM pg_replication_slots "
                + "WHERE slot_name = ?")) {
            ps.setString(1, lsn);
            ps.setString(2, slot());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    boolean slotExists() throws SQLException {
        try (Statement s = source.createStatement();
             ResultSet rs = s.executeQuery("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot() + "'")) {
            return rs.next();
        }
    }

    /** Current end offset of every partition of every captured table's topic (empty for a topic not created yet). */
    Map<TopicPartition, Long> endOffsets() {
        try (KafkaConsumer<byte[], byte[]> c = KafkaTopics.consumer(bootstrap)) {
            List<TopicPartition> tps = new ArrayList<>();
            for (String topic : config().topics()) {
                List<PartitionInfo> infos = c.partitionsFor(topic, Duration.ofSeconds(10));
                for (PartitionInfo pi : infos == null ? List.<PartitionInfo>of() : infos) {
                    tps.add(new TopicPartition(topic, pi.partition()));
                }
            }
            return new HashMap<>(c.endOffsets(tps, Duration.ofSeconds(10)));
        }
    }

    /** The {@code op} of every record after {@code from} up to the current end ("tombstone" for null values). */
    List<String> opsSince(Map<TopicPartition, Long> from) throws IOException {
        Map<TopicPartition, Long> start = new HashMap<>();
        endOffsets().keySet().forEach(tp -> start.put(tp, from.getOrDefault(tp, 0L)));
        return KafkaTopics.opsSince(bootstrap, start);
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws SQLException {
        for (Process p : processes) {
            p.destroyForcibly();
        }
        for (Process p : processes) {
            try {
                p.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (Sidecar s : started) {
            s.close();
        }
        try (Statement s = source.createStatement()) {
            s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '" + slot() + "' AND NOT active");
        } finally {
            source.close();
        }
    }
}
