package dev.tidemark.connect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * The Tidemark sink as a Kafka Connect {@link SinkConnector}: applies Debezium change events (the JSON envelopes
 * {@code JsonConverter} writes with schemas) from Connect's {@code topics}/{@code topics.regex} into a JDBC target,
 * rows and offsets in one target transaction (see {@link TidemarkSinkTask}). Settings: {@link ConnectSinkConfig};
 * they are checked at {@link #start} (one line naming the key) and every task gets the same copy.
 */
public final class TidemarkSinkConnector extends SinkConnector {
    /** The plugin's version, as Connect lists it. */
    static final String VERSION = versionOf();

    private Map<String, String> props;

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        ConnectSinkConfig.parse(props); // refuse a bad configuration before any task starts
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return TidemarkSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>(maxTasks);
        for (int i = 0; i < maxTasks; i++) {
            configs.add(props);
        }
        return configs;
    }

    @Override
    public void stop() {
        // nothing held: the tasks own their target connections
    }

    /**
     * Connect's check of the {@link #config() definition}, plus the converters the task cannot read
     * ({@link ConnectSinkConfig#converterProblems}), each an error on its key: Connect's {@code config/validate}
     * reports them and its {@code POST /connectors} refuses the configuration (HTTP 400) before creating anything.
     */
    @Override
    public Config validate(Map<String, String> props) {
        List<ConfigValue> values = new ArrayList<>(super.validate(props).configValues());
        for (ConnectSinkConfig.Problem p : ConnectSinkConfig.converterProblems(props)) {
            values.add(new ConfigValue(p.key(), props.get(p.key()), List.of(), new ArrayList<>(List.of(p.exception().getMessage()))));
        }
        return new Config(values);
    }

    @Override
    public ConfigDef config() {
        return ConnectSinkConfig.DEFINITION;
    }

    private static String versionOf() {
        String v = TidemarkSinkConnector.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }
}
