package dev.tidemark.connector.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Durations;
import dev.tidemark.jdbc.JdbcEndpoints;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads a pipeline YAML file into a {@link PipelineConfig}. Every string value may contain {@code ${NAME}} or
 * {@code ${NAME:-default}}, replaced from the environment (for secrets). All problems are collected and reported at
 * once, each naming its key ({@code Invalid value X for configuration source.tables[1]: why}).
 *
 * <pre>
 * name: orders                      # pipeline name (consumer group, slot default)
 * source:
 *   url: jdbc:postgresql://127.0.0.1:5432/app
 *   user: postgres
 *   password: ${PGPASSWORD:-}
 *   tables: [public.orders]
 *   slot: tidemark_orders           # default tidemark_&lt;name&gt;
 *   publication: tidemark_orders    # default tidemark_&lt;name&gt;
 *   setReplicaIdentityFull: true
 *   pollIntervalMs: 10
 *   excludeColumns: []              # schema.table.column: left out of capture (default: none)
 *   heartbeat: {interval: 10s}      # WAL heartbeat while captured tables are idle (default 10s; 0 or off: none)
 *   debezium: {}                    # Debezium settings passed as they are (owned ones refused: DebeziumPassThrough)
 * kafka:
 *   bootstrapServers: 127.0.0.1:9092
 *   topicPrefix: orders             # default: name
 *   partitions: 1
 *   replicationFactor: 1
 *   properties: {}                  # extra client properties
 *   topics: {public.orders: orders} # optional: a table's topic (default &lt;topicPrefix&gt;.&lt;schema&gt;.&lt;table&gt;, escaped: TopicNames)
 * target:
 *   url: jdbc:sqlite:replica.db
 *   batchSize: 2000
 *   positionColumn: __tidemark_position
 *   applyTruncate: false
 *   deleteMode: hard                # or soft: keep deleted keys, marked __tidemark_deleted
 *   deadLetterTopic: orders.dlq     # poison events go here (default: none, a poison event stops the sink)
 *   tables: {sales.orders: sales_orders} # optional: a table's target table (default: its name without schema)
 * stateDir: ./tidemark-state        # Debezium offsets file
 * observability:                    # optional: HTTP /health, /metrics and / (absent: no endpoint)
 *   port: 9464
 *   host: 127.0.0.1                 # default: this machine only; 0.0.0.0 in a container
 * reconcile:                        # optional: run and sink compare the tables with the target on a schedule
 *   every: 1h                       # period between run starts (at least 1s)
 *   tables: [public.orders]         # default: all of source.tables
 *   settle: 5s                      # re-check wait for keys found different
 *   repair: report                  # off (counts only) | report (log the repair) | auto (repair through the sink)
 *   maxDeleteShare: 10%             # most target rows an automatic repair may delete
 *   budget: 1h                      # time one run may take (default and most: every)
 * </pre>
 * Relative paths ({@code stateDir}, a SQLite target file) are resolved against the folder of the file, never the
 * current directory.
 */
public final class PipelineConfigParser {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");
    static final Set<String> TOP = Set.of("name", "source", "kafka", "target", "stateDir", "observability", "reconcile");
    static final Set<String> RECONCILE = ReconcileSection.KEYS;
    static final Set<String> OBSERVABILITY = Set.of("port", "host");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.:_-]+|\\[[0-9A-Fa-f:.]+]");
    static final Set<String> SOURCE = Set.of("url", "user", "password", "tables", "slot", "publication",
            "setReplicaIdentityFull", "pollIntervalMs", "excludeColumns", "heartbeat", "debezium");
    static final Set<String> HEARTBEAT = Set.of("interval");
    static final Set<String> KAFKA = Set.of("bootstrapServers", "topicPrefix", "partitions", "replicationFactor", "properties",
            "topics");
    static final Set<String> TARGET = Set.of("url", "user", "password", "batchSize", "positionColumn", "applyTruncate", "deleteMode", "deadLetterTopic",
            "tables");

    private final ConfigReader reader;
    private final List<String> problems;

    private PipelineConfigParser(ConfigReader reader) {
        this.reader = reader;
        this.problems = reader.problems();
    }

    public static PipelineConfig parse(Path file) {
        return parse(file, System::getenv);
    }

    public static PipelineConfig parse(Path file, Function<String, String> env) {
        return parse(ConfigFile.read(file), file.toString(), file.toAbsolutePath().getParent(), env);
    }

    public static PipelineConfig parse(String yaml, String sourceName, Path baseDir, Function<String, String> env) {
        return ConfigFile.parse(yaml, sourceName, TOP, env,
                (reader, root) -> new PipelineConfigParser(reader).build(root, baseDir == null ? Path.of(".") : baseDir));
    }

    private PipelineConfig build(JsonNode root, Path baseDir) {
        unknownKeys(root, "", TOP);
        String name = text(root, "name", null, true);
        if (name != null && !NAME.matcher(name).matches()) {
            invalid("name", name, "use letters, digits, '_', '.', '-'");
        }
        SourceConfig source = source(section(root, "source", SOURCE), name);
        KafkaConfig kafka = kafka(section(root, "kafka", KAFKA), name, source.tables());
        TargetConfig target = target(section(root, "target", TARGET), baseDir, source.tables());
        String state = text(root, "stateDir", "tidemark-state", false);
        Path stateDir = state == null ? baseDir : baseDir.resolve(state).normalize();
        return new PipelineConfig(name, source, kafka, target, stateDir, observability(root),
                ReconcileSection.read(reader, root, source.tables()));
    }

    private SourceConfig source(JsonNode s, String name) {
        String safe = name == null ? "pipeline" : name.replaceAll("[^A-Za-z0-9_]", "_").toLowerCase();
        String url = text(s, "source.url", null, true);
        if (url != null && !url.startsWith("jdbc:postgresql://")) {
            invalid("source.url", url, "CDC needs a jdbc:postgresql://host:port/database URL");
        }
        List<TableId> tables = tables(s);
        List<SourceConfig.ColumnId> excluded = excludeColumns(s, tables);
        Map<String, String> debezium = debezium(s, !excluded.isEmpty());
        if (url != null && url.startsWith("jdbc:postgresql://")) {
            SourceTls.refusals(url, debezium).forEach(why -> invalid("source.url", url, why));
        }
        return new SourceConfig(url, text(s, "source.user", "postgres", false),
                Secret.of(text(s, "source.password", "", false)),
                text(s, "source.slot", "tidemark_" + safe, false), text(s, "source.publication", "tidemark_" + safe, false),
                tables, bool(s, "source.setReplicaIdentityFull", true),
                Duration.ofMillis(integer(s, "source.pollIntervalMs", 10, 1, 60_000)), excluded,
                heartbeatInterval(s), debezium);
    }

    /** {@code source.tables}: a non-empty list of {@code schema.table}. */
    private List<TableId> tables(JsonNode source) {
        List<TableId> tables = new ArrayList<>();
        JsonNode t = reader.list(source, "tables", "source.tables", "[public.orders, public.customers]");
        if (t != null && t.isEmpty()) {
            problems.add("Missing value for configuration source.tables: list the captured tables as schema.table");
        } else if (t != null) {
            for (int i = 0; i < t.size(); i++) {
                String q = substitute("source.tables[" + i + "]", t.get(i).asText());
                if (q == null || q.isBlank() || q.indexOf('.') <= 0) {
                    invalid("source.tables[" + i + "]", q, "expected schema.table");
                } else {
                    tables.add(TableId.parse(q));
                }
            }
        }
        return tables;
    }

    private KafkaConfig kafka(JsonNode k, String name, List<TableId> tables) {
        Map<String, String> props = reader.properties(k, "properties", "kafka.properties");
        String prefix = text(k, "kafka.topicPrefix", name, false);
        return new KafkaConfig(text(k, "kafka.bootstrapServers", null, true), prefix,
                integer(k, "kafka.partitions", 1, 1, 10_000), (short) integer(k, "kafka.replicationFactor", 1, 1, 7), props,
                TopicsSection.read(reader, k, prefix, tables));
    }

    private TargetConfig target(JsonNode g, Path baseDir, List<TableId> tables) {
        String targetUrl = JdbcEndpoints.relativeTo(text(g, "target.url", null, true), baseDir);
        if (targetUrl != null && !targetUrl.startsWith("jdbc:")) {
            invalid("target.url", targetUrl, "expected a JDBC URL such as jdbc:sqlite:replica.db");
        } else if (targetUrl != null) {
            JdbcEndpoints.refusal(JdbcEndpoints.Side.TARGET, targetUrl)
                    .ifPresent(why -> problems.add("Invalid configuration target.url: " + why));
        }
        return new TargetConfig(targetUrl, text(g, "target.user", null, false),
                Secret.of(text(g, "target.password", "", false)), integer(g, "target.batchSize", 2000, 1, 1_000_000),
                text(g, "target.positionColumn", SinkOptions.DEFAULT_POSITION_COLUMN, false), bool(g, "target.applyTruncate", false),
                deleteMode(g), text(g, "target.deadLetterTopic", null, false), TargetTablesSection.read(reader, g, tables));
    }

    /** {@code observability}: absent means off; present needs a port. */
    private ObservabilityConfig observability(JsonNode root) {
        JsonNode o = root.path("observability");
        if (o.isMissingNode() || o.isNull()) {
            return ObservabilityConfig.OFF;
        }
        JsonNode n = section(root, "observability", OBSERVABILITY);
        if (n.isMissingNode()) {
            return ObservabilityConfig.OFF;
        }
        if (n.path("port").isMissingNode() || n.path("port").isNull()) {
            reader.missing("observability.port", "the TCP port of /health, /metrics and /, such as 9464");
            return ObservabilityConfig.OFF;
        }
        int port = integer(n, "observability.port", 0, 1, 65_535);
        String host = text(n, "observability.host", ObservabilityConfig.DEFAULT_HOST, false);
        if (host == null || !HOST.matcher(host).matches()) {
            invalid("observability.host", host, "expected a host name or IP address such as 127.0.0.1 or 0.0.0.0");
            return ObservabilityConfig.OFF;
        }
        return port == 0 ? ObservabilityConfig.OFF : new ObservabilityConfig(host, port);
    }

    /** {@code source.excludeColumns}: a list of {@code schema.table.column}, each of a captured table. */
    private List<SourceConfig.ColumnId> excludeColumns(JsonNode source, List<TableId> tables) {
        JsonNode list = source.path("excludeColumns");
        List<SourceConfig.ColumnId> out = new ArrayList<>();
        if (list.isMissingNode() || list.isNull()) {
            return out;
        }
        if (!list.isArray()) {
            invalid("source.excludeColumns", list.asText(), "expected a list of schema.table.column");
            return out;
        }
        for (int i = 0; i < list.size(); i++) {
            String key = "source.excludeColumns[" + i + "]";
            String q = substitute(key, list.get(i).asText());
            int dot = q == null ? -1 : q.lastIndexOf('.');
            if (dot <= 0 || dot == q.length() - 1 || q.substring(0, dot).indexOf('.') <= 0) {
                invalid(key, q, "expected schema.table.column");
                continue;
            }
            TableId table = TableId.parse(q.substring(0, dot));
            if (!tables.contains(table)) {
                invalid(key, q, "table " + table + " is not in source.tables " + tables);
                continue;
            }
            out.add(new SourceConfig.ColumnId(table, q.substring(dot + 1)));
        }
        return out;
    }

    /** {@code source.heartbeat.interval}: a duration ({@code 10s}, {@code 500ms}), or {@code 0} / {@code off} for none. */
    private Duration heartbeatInterval(JsonNode source) {
        JsonNode h = source.path("heartbeat");
        if (h.isMissingNode() || h.isNull()) {
            return SourceConfig.DEFAULT_HEARTBEAT;
        }
        if (!h.isObject()) {
            invalid("source.heartbeat", h.asText(), "expected a mapping such as {interval: 10s}");
            return SourceConfig.DEFAULT_HEARTBEAT;
        }
        unknownKeys(h, "source.heartbeat.", HEARTBEAT);
        String raw = text(h, "source.heartbeat.interval", null, false);
        if (raw == null) {
            return SourceConfig.DEFAULT_HEARTBEAT;
        }
        // YAML 1.1 reads an unquoted off as false
        if (raw.trim().equalsIgnoreCase("off") || raw.trim().equalsIgnoreCase("false")) {
            return Duration.ZERO;
        }
        try {
            Duration d = Durations.parse(raw);
            if (!d.isZero() && d.compareTo(Duration.ofMillis(100)) < 0 || d.compareTo(Duration.ofHours(1)) > 0) {
                invalid("source.heartbeat.interval", raw, "must be between 100ms and 1h (or 0 / off for no heartbeats)");
                return SourceConfig.DEFAULT_HEARTBEAT;
            }
            return d;
        } catch (IllegalArgumentException e) {
            invalid("source.heartbeat.interval", raw, e.getMessage());
            return SourceConfig.DEFAULT_HEARTBEAT;
        }
    }

    /** {@code source.debezium}: settings for the engine, each allowed by {@link DebeziumPassThrough} (else one line). */
    private Map<String, String> debezium(JsonNode source, boolean excludeColumnsSet) {
        JsonNode d = source.path("debezium");
        Map<String, String> out = new LinkedHashMap<>();
        if (d.isMissingNode() || d.isNull()) {
            return out;
        }
        if (!d.isObject()) {
            invalid("source.debezium", d.asText(), "expected a mapping of Debezium settings such as {snapshot.mode: no_data}");
            return out;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = d.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = "source.debezium." + e.getKey();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                invalid(key, e.getValue().toString(), "expected a single value");
                continue;
            }
            String value = substitute(key, e.getValue().asText());
            DebeziumPassThrough.refusal(e.getKey(), value, excludeColumnsSet)
                    .ifPresentOrElse(why -> reader.problem("Refused configuration " + key + ": " + why),
                            () -> out.put(e.getKey().trim(), value));
        }
        return out;
    }

    private boolean deleteMode(JsonNode target) {
        String mode = text(target, "target.deleteMode", "hard", false);
        if (mode == null || mode.equals("hard")) {
            return false;
        }
        if (mode.equals("soft")) {
            return true;
        }
        invalid("target.deleteMode", mode, "expected hard or soft");
        return false;
    }

    private JsonNode section(JsonNode root, String key, Set<String> allowed) {
        return reader.section(root, key, allowed);
    }

    private void unknownKeys(JsonNode n, String prefix, Set<String> allowed) {
        reader.unknownKeys(n, prefix, allowed);
    }

    private String text(JsonNode parent, String key, String fallback, boolean required) {
        return reader.text(parent, leaf(key), key, fallback, required);
    }

    private int integer(JsonNode parent, String key, int fallback, int min, int max) {
        return reader.integer(parent, leaf(key), key, fallback, min, max);
    }

    private boolean bool(JsonNode parent, String key, boolean fallback) {
        return reader.bool(parent, leaf(key), key, fallback);
    }

    private String substitute(String key, String value) {
        return reader.substitute(key, value);
    }

    private void invalid(String key, String value, String why) {
        reader.invalid(key, value, why);
    }

    private static String leaf(String key) {
        return key.substring(key.lastIndexOf('.') + 1);
    }
}
