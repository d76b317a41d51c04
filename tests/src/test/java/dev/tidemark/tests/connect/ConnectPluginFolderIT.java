package dev.tidemark.tests.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connect.TidemarkSinkConnector;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.TableId;
import dev.tidemark.testkit.SyntheticChangeStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.connector.Connector;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.runtime.isolation.PluginClassLoader;
import org.apache.kafka.connect.runtime.isolation.PluginDesc;
import org.apache.kafka.connect.runtime.isolation.Plugins;
import org.apache.kafka.connect.sink.SinkConnector;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged plugin folder ({@code connect-sink/target/tidemark-connect-sink-*-plugin/}, built at {@code package})
 * is what Connect's {@code plugin.path} loads: Connect's own {@link Plugins} scans it, finds the connector in it, and
 * loads it in isolation (a {@link PluginClassLoader} whose location is the folder), with none of Connect's own jars in
 * the folder. Through that loader the connector validates a configuration, and a task started with a minimal
 * {@link SinkTaskContext} applies change events into a SQLite target with its own packed JDBC driver (registered by
 * Connect's scan of the folder; {@code DriverManager} was initialised through the class path first, as in a worker),
 * seeking to and storing offsets in the target.
 */
class ConnectPluginFolderIT {
    @TempDir
    Path dir;

    @Test
    void connectLoadsThePackagedFolderInIsolationAndItsTaskAppliesEvents() throws Exception {
        Path folder = pluginFolder();
        try (Stream<Path> jars = Files.list(folder.resolve("tidemark-connect-sink"))) {
            List<String> names = jars.map(p -> p.getFileName().toString()).toList();
            assertThat(names).anyMatch(n -> n.startsWith("tidemark-connect-sink-")).anyMatch(n -> n.startsWith("sqlite-jdbc-"))
                    .noneMatch(n -> n.startsWith("kafka-clients") || n.startsWith("connect-api") || n.startsWith("connect-json")
                            || n.startsWith("connect-runtime") || n.startsWith("slf4j-api"));
        }
        Plugins plugins = new Plugins(Map.of("plugin.path", folder.toString(), "plugin.discovery", "service_load"));
        PluginDesc<SinkConnector> desc = plugins.sinkConnectors().stream()
                .filter(d -> d.className().equals(TidemarkSinkConnector.class.getName()))
                .filter(d -> d.pluginClass().getClassLoader() instanceof PluginClassLoader)
                .findFirst().orElseThrow(() -> new AssertionError("no TidemarkSinkConnector loaded from " + folder + ": " + plugins.sinkConnectors()));
        PluginClassLoader loader = (PluginClassLoader) desc.pluginClass().getClassLoader();
        assertThat(loader.location()).contains(folder.toString());
        assertThat(desc.pluginClass()).isNotEqualTo(TidemarkSinkConnector.class); // the folder's copy, not the test class path's

        // as in a worker where JDBC was used before the plugin (by the worker or another plugin): DriverManager has
        // found its drivers through the class path, whose driver classes are not the plugin's
        assertThat(java.util.Collections.list(DriverManager.getDrivers())).isNotEmpty();
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(loader);
        try {
            // the folder's copy, as a worker whose only copy is the plugin.path one instantiates it
            Connector connector = desc.pluginClass().getDeclaredConstructor().newInstance();
            String target = "jdbc:sqlite:" + dir.resolve("target.db");
            Map<String, String> config = new HashMap<>(Map.of("name", "folder-sink", "topics", "shop.public.things", "target.url", target));
            Config good = connector.validate(config);
            assertThat(good.configValues()).allSatisfy(v -> assertThat(v.errorMessages()).as(v.name()).isEmpty());
            Config bad = connector.validate(Map.of("name", "folder-sink", "topics", "x", "target.url", "jdbc:oracle:thin:@db"));
            assertThat(bad.configValues()).filteredOn(v -> v.name().equals("target.url"))
                    .flatExtracting(ConfigValue::errorMessages).anyMatch(m -> m.contains("unsupported target jdbc:oracle"));

            connector.start(config);
            Class<? extends Task> taskClass = connector.taskClass();
            assertThat(taskClass.getClassLoader()).isSameAs(loader);
            SinkTask task = (SinkTask) plugins.newTask(taskClass);
            FakeContext context = new FakeContext(connector.taskConfigs(1).get(0));
            task.initialize(context);
            task.start(context.configs());
            TopicPartition tp = new TopicPartition("shop.public.things", 0);
            task.open(List.of(tp));
            assertThat(context.seeks).containsExactly(Map.entry(tp, 0L));
            task.put(records(tp, 30));
            assertThat(task.preCommit(Map.of(tp, new org.apache.kafka.clients.consumer.OffsetAndMetadata(30))))
                    .containsExactly(Map.entry(tp, new org.apache.kafka.clients.consumer.OffsetAndMetadata(30)));
            task.close(List.of(tp));
            task.stop();
            connector.stop();
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("target.db")); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT \"next_offset\" FROM \"tidemark_offsets\" WHERE \"pipeline\" = 'folder-sink'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(30);
        }
    }

    /** {@code n} change events of a synthetic stream as Connect hands them over with ByteArrayConverter. */
    private static List<SinkRecord> records(TopicPartition tp, int n) {
        SyntheticChangeStream stream = new SyntheticChangeStream(new TableId("public", "things"), 5, 1000);
        EnvelopeEncoder encoder = new EnvelopeEncoder("shop", "postgresql", "folder");
        List<SinkRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ChangeEvent e = stream.next();
            byte[] value = e instanceof ChangeEvent.Delete d && d.tombstone() ? EnvelopeEncoder.tombstone()
                    : encoder.value(e, SyntheticChangeStream.SCHEMA, 1_700_000_000_000L + i);
            out.add(new SinkRecord(tp.topic(), tp.partition(), null, encoder.key(e, SyntheticChangeStream.SCHEMA), null, value, i));
        }
        return out;
    }

    private static Path pluginFolder() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("connect-sink"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the project root above " + Path.of("").toAbsolutePath()).isNotNull();
        try (Stream<Path> built = Files.list(dir.resolve("connect-sink").resolve("target"))) {
            return built.filter(p -> Files.isDirectory(p) && p.getFileName().toString().endsWith("-plugin")).findFirst()
                    .orElseThrow(() -> new AssertionError("no plugin folder under connect-sink/target: build it with mvn package"));
        }
    }

    /** The least a sink task needs from Connect: its configuration and where it asks to seek. */
    private static final class FakeContext implements SinkTaskContext {
        private final Map<String, String> configs;
        final Map<TopicPartition, Long> seeks = new HashMap<>();

        FakeContext(Map<String, String> configs) {
            this.configs = configs;
        }

        @Override
        public Map<String, String> configs() {
            return configs;
        }

        @Override
        public void offset(Map<TopicPartition, Long> offsets) {
            seeks.putAll(offsets);
        }

        @Override
        public void offset(TopicPartition tp, long offset) {
            seeks.put(tp, offset);
        }

        @Override
        public void timeout(long timeoutMs) {
            // no retries here
        }

        @Override
        public Set<TopicPartition> assignment() {
            return seeks.keySet();
        }

        @Override
        public void pause(TopicPartition... partitions) {
            // never paused here
        }

        @Override
        public void resume(TopicPartition... partitions) {
            // never paused here
        }

        @Override
        public void requestCommit() {
            // commits are the test's
        }

        @Override
        public PluginMetrics pluginMetrics() {
            return null;
        }
    }
}
