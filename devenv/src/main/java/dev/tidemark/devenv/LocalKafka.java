package dev.tidemark.devenv;

import dev.tidemark.process.Directories;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.AppInfoParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Kafka broker (KRaft, combined broker and controller) running in a child JVM, for
 * {@code tidemark demo} and integration tests.
 *
 * <p><b>What it starts.</b> {@link #start(Path)} writes {@code baseDir/server.properties} ({@link BrokerProperties}: a
 * PLAINTEXT listener, or with {@link #start(Path, KafkaSasl)} a SASL_SSL one only, and the controller listener, on free
 * 127.0.0.1 ports), formats the storage with {@code kafka.tools.StorageTool} (creating the SCRAM user of a
 * {@link KafkaSasl}) in a short-lived child JVM, then starts {@link KafkaChildMain} in a
 * second child JVM with this JVM's class path, and returns once an admin client sees the broker. Broker output goes to
 * {@code baseDir/kafka.log} at WARN level.
 *
 * <p><b>Who cleans up.</b> The instance owns {@code baseDir}; the caller owns the instance and must {@link #close()}
 * it, which stops the broker (SIGTERM, then SIGKILL after 15 s) and deletes {@code baseDir}. Should this JVM die
 * without closing, even by SIGKILL, the broker halts by itself when its stdin pipe from this JVM closes
 * ({@code baseDir} then stays behind).
 *
 * <p><b>Thread-safety.</b> Each instance is independent; accessors are safe from any thread, and {@link #close()} is
 * idempotent and may be called concurrently. {@code start} failures throw {@link IllegalStateException} with the tail
 * of {@code kafka.log}; {@code close()} never throws.
 */
public final class LocalKafka implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalKafka.class);
    private static final String HOST = "127.0.0.1";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    private static final int LOG_TAIL_LINES = 30;
    private static final List<String> JVM_OPTIONS = List.of("-Xms256m", "-Xmx768m", "-XX:+UseSerialGC");

    private final ServerFolder folder;
    private final Path logFile;
    private final String bootstrapServers;
    private final List<String> brokerCommand;
    private final int brokerPort;
    private final Map<String, String> clientProperties;
    private volatile Process process;
    private volatile long startupMillis;

    private LocalKafka(Path baseDir, Path logFile, List<String> brokerCommand, int brokerPort, KafkaSasl sasl, Process process) {
        this.folder = new ServerFolder(baseDir, "Kafka");
        this.clientProperties = sasl == null ? Map.of() : Map.copyOf(sasl.clientProperties());
        this.logFile = logFile;
        this.brokerCommand = List.copyOf(brokerCommand);
        this.brokerPort = brokerPort;
        this.bootstrapServers = HOST + ":" + brokerPort;
        this.process = process;
    }

    /** Formats and starts a broker in {@code baseDir} (created if absent); returns once it serves requests. */
    public static LocalKafka start(Path baseDir) {
        return start(baseDir, 0);
    }

    /**
     * As {@link #start(Path)}, with the broker listening on {@code port} (0: a free port; the controller always
     * gets a free one). The caller checks that {@code port} is free.
     */
    public static LocalKafka start(Path baseDir, int port) {
        return start(baseDir, port, null);
    }

    /**
     * As {@link #start(Path)}, with a single SASL_SSL client listener as {@code sasl} says and no plaintext one for
     * clients: {@link #clientProperties()} are what a client needs to sign in.
     */
    public static LocalKafka start(Path baseDir, KafkaSasl sasl) {
        return start(baseDir, 0, java.util.Objects.requireNonNull(sasl, "sasl"));
    }

    private static LocalKafka start(Path baseDir, int port, KafkaSasl sasl) {
        long begin = System.nanoTime();
        Path dir = baseDir.toAbsolutePath().normalize();
        int[] ports = FreePorts.find(2);
        int brokerPort = port == 0 ? ports[0] : port;
        int controllerPort = ports[1] == brokerPort ? ports[0] : ports[1];
        Path properties = dir.resolve("server.properties");
        Path logbackConfig = dir.resolve("logback-kafka.xml");
        Path logFile = dir.resolve("kafka.log");
        try {
            Files.createDirectories(dir);
            Files.writeString(properties, BrokerProperties.text(dir, HOST, brokerPort, controllerPort, sasl), StandardCharsets.UTF_8);
            Files.writeString(logbackConfig, LOGBACK_CONFIG, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("write Kafka configuration into " + dir + " failed: " + e, e);
        }

        List<String> format = javaCommand(logbackConfig, List.of("-Xmx256m", "-XX:+UseSerialGC"));
        format.addAll(List.of("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(),
                "-c", properties.toString()));
        if (sasl != null) {
            format.addAll(List.of("--add-scram", sasl.scramArgument()));
        }
        try {
            Processes.run("format Kafka storage", format, dir, READY_TIMEOUT);
        } catch (RuntimeException e) {
            Directories.deleteOrWarn(dir, "Kafka");
            throw e;
        }

        List<String> broker = javaCommand(logbackConfig, JVM_OPTIONS);
        broker.addAll(List.of(KafkaChildMain.class.getName(), properties.toString()));
        Process process = launch(broker, dir, logFile);
        LocalKafka kafka = new LocalKafka(dir, logFile, broker, brokerPort, sasl, process);
        try {
            kafka.awaitReady(brokerPort);
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
        kafka.startupMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
        LOG.info("Kafka {} (KRaft, single node) started on {}{} in {} s", AppInfoParser.getVersion(),
                kafka.bootstrapServers, sasl == null ? "" : " (SASL_SSL, " + KafkaSasl.MECHANISM + ")", String.format(Locale.ROOT, "%.1f", kafka.startupMillis / 1000.0));
        return kafka;
    }

    private static Process launch(List<String> broker, Path dir, Path logFile) {
        try {
            // in a session of its own: a terminal's Ctrl-C reaches only tidemark, which then stops the broker
            return new ProcessBuilder(Processes.ownSession(broker))
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start(); // stdin stays a pipe: KafkaChildMain halts when it closes
        } catch (IOException e) {
            throw new IllegalStateException("start the Kafka broker JVM failed: " + e.getMessage(), e);
        }
    }

    /**
     * Fault injection for tests: kills the broker JVM with SIGKILL (no clean shutdown, unflushed log segments), then
     * starts it again on the same port and data, and returns once it serves requests. Not for concurrent use with
     * {@link #close()}.
     */
    public void crashAndRestart() {
        Process old = process;
        old.destroyForcibly();
        try {
            if (!old.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("Kafka on " + bootstrapServers + " did not die of SIGKILL within "
                        + STOP_TIMEOUT.toSeconds() + " s");
            }
            old.getOutputStream().close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing Kafka on " + bootstrapServers, e);
        } catch (IOException e) {
            LOG.debug("Closing the killed broker's stdin failed", e);
        }
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (accepts(brokerPort)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("port " + brokerPort + " still taken " + READY_TIMEOUT.toSeconds()
                        + " s after killing Kafka");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        process = launch(brokerCommand, folder.path(), logFile);
        awaitReady(brokerPort);
    }

    private static final String LOGBACK_CONFIG = """
            <configuration>
              <appender name="CONSOLE" class="ch.qos.logback.core.ConsoleAppender">
                <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
              </appender>
              <root level="WARN"><appender-ref ref="CONSOLE"/></root>
            </configuration>
            """;

    /** {@code java <options> -cp <this JVM's class path, made absolute>}; the caller appends the main class. */
    private static List<String> javaCommand(Path logbackConfig, List<String> options) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options);
        command.add("-Dlogback.configurationFile=" + logbackConfig);
        command.add("-cp");
        command.add(absoluteClassPath());
        return command;
    }

    /** The JVM's class path with relative entries (e.g. {@code java -jar target/tidemark.jar}) made absolute. */
    private static String absoluteClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.isBlank())
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** Waits for the broker port to accept connections, then for an admin client to see the broker. */
    private void awaitReady(int brokerPort) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!accepts(brokerPort)) {
            pause(deadline);
        }
        Map<String, Object> config = new java.util.HashMap<>(clientProperties);
        config.putAll(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.CLIENT_ID_CONFIG, "tidemark-local-kafka-probe",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000));
        try (Admin admin = Admin.create(config)) {
            while (true) {
                try {
                    Collection<Node> nodes = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    if (!nodes.isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    LOG.debug("Kafka on {} not ready yet: {}", bootstrapServers, e.toString());
                }
                pause(deadline);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("was interrupted while starting");
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(HOST, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Waits ~100 ms; fails if the broker JVM has exited or the deadline has passed. */
    private void pause(long deadline) {
        try {
            if (process.waitFor(100, TimeUnit.MILLISECONDS)) {
                throw failure("exited with code " + process.exitValue() + " during startup");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("was interrupted while starting");
        }
        if (System.nanoTime() > deadline) {
            throw failure("did not become ready within " + READY_TIMEOUT.toSeconds() + " s");
        }
    }

    private IllegalStateException failure(String what) {
        String tail = Processes.tail(logFile, LOG_TAIL_LINES).orElse("(empty)");
        return new IllegalStateException("start Kafka broker on " + bootstrapServers + ": broker JVM " + what
                + "\n--- last lines of " + logFile + " ---\n" + tail);
    }

    /** {@code 127.0.0.1:<port>}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * What a client of this broker sets besides {@code bootstrap.servers}: nothing for a plaintext listener; for a
     * SASL_SSL one, {@link KafkaSasl#clientProperties()}.
     */
    public Map<String, String> clientProperties() {
        return clientProperties;
    }

    /** Wall time {@code start} took, storage formatting included. */
    public long startupMillis() {
        return startupMillis;
    }

    /** True while the broker process runs. */
    public boolean isAlive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** Process id of the broker JVM. */
    public long pid() {
        return process.pid();
    }

    Path baseDir() {
        return folder.path();
    }

    /** Stops the broker (SIGTERM, SIGKILL after 15 s) and deletes {@code baseDir}. Never throws. */
    @Override
    public void close() {
        folder.close(this::stopBroker);
    }

    private void stopBroker() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("Kafka on {} did not stop within {} s; killing it", bootstrapServers,
                        STOP_TIMEOUT.toSeconds());
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            LOG.debug("Closing the broker's stdin failed", e);
        }
    }
}
