package dev.tidemark.cli;

import dev.tidemark.cli.dev.DevLibrary;
import dev.tidemark.cli.dev.DevServers;
import dev.tidemark.jdbc.UsageException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tidemark dev-kafka}: a single-node KRaft Kafka broker for trying Tidemark without Docker, from the broker
 * the command's dev libraries (devenv's broker in a child JVM, {@link DevServers.Broker}). Runs in the foreground until Ctrl-C or SIGTERM, then
 * stops the broker and removes its folder (exit 130). For development only: one node, replication factor 1, data
 * deleted on stop.
 */
@Command(name = "dev-kafka", mixinStandardHelpOptions = true,
        description = {"Run a throwaway single-node Kafka broker (KRaft) in the foreground, for development: Ctrl-C stops it "
                + "and deletes its data.",
                "Example: tidemark dev-kafka --port 9092   (then kafka.bootstrapServers: 127.0.0.1:9092 in the pipeline file)"})
final class DevKafkaCommand implements Callable<Integer> {
    @Option(names = "--port", paramLabel = "N", defaultValue = "9092", description = "broker port on 127.0.0.1 (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--dir", paramLabel = "D", description = "the broker's folder: absent or empty; deleted on stop "
            + "(default: a new temporary folder)")
    Path dir;

    @Override
    public Integer call() throws Exception {
        DevServers servers = DevLibrary.servers("dev-kafka");
        if (port < 1 || port > 65535) {
            throw new UsageException("Invalid value " + port + " for --port: must be 1 to 65535");
        }
        if (!free(port)) {
            throw new UsageException("port " + port + " on 127.0.0.1 is in use (another Kafka?): stop it or choose --port N");
        }
        Path folder = dir != null ? dir.toAbsolutePath().normalize() : Files.createTempDirectory("tidemark-dev-kafka-");
        if (dir != null && Files.exists(folder) && !empty(folder)) {
            throw new UsageException("--dir " + folder + " is not empty: give an absent or empty folder (it is deleted on stop)");
        }
        Termination termination = Termination.install();
        System.out.println("starting Kafka (KRaft, single node) in " + folder + " ...");
        try (DevServers.Broker kafka = servers.broker(folder, port)) {
            System.out.println("Kafka on " + kafka.bootstrapServers() + " (started in " + String.format("%.1f", kafka.startupMillis() / 1000.0)
                    + " s); pipeline files: kafka.bootstrapServers: " + kafka.bootstrapServers() + "; Ctrl-C stops it and deletes "
                    + folder);
            while (!termination.awaitRequest(500)) {
                if (!kafka.isAlive()) {
                    System.err.println("tidemark: the Kafka broker stopped by itself; its log was in " + folder.resolve("kafka.log"));
                    return ExitCodes.RUNTIME;
                }
            }
        }
        System.err.println("tidemark: stopped (" + (termination.byCtrlC() ? "Ctrl-C" : "SIGTERM") + "): Kafka stopped and "
                + folder + " deleted");
        return ExitCodes.INTERRUPTED;
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress("127.0.0.1", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean empty(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.findAny().isEmpty();
        }
    }
}
