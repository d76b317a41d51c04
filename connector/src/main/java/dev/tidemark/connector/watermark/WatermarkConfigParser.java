package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.Durations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.tidemark.connector.config.ConfigException;
import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.Secret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads a watermark pipeline file. {@code ${NAME}} / {@code ${NAME:-default}} in any value come from the
 * environment; every problem is collected and reported at once, each naming its key.
 *
 * <pre>
 * name: invoices
 * source:   { url: jdbc:sqlite:chinook.db, user: …, password: ${SRC_PASSWORD:-} }
 * target:   { url: jdbc:sqlite:replica.db }          # direct mode: rows and watermark in one transaction
 * kafka:                                             # optional: produce to Kafka instead
 *   bootstrapServers: 127.0.0.1:9092
 *   topicPrefix: invoices                            # default: name
 *   partitions: 1
 *   replicationFactor: 1
 * control:  { url: jdbc:postgresql://… }             # Kafka mode: where the control table lives (default: target)
 * every: 1h                                          # optional: keep running on this schedule
 * defaults: { overlap: 0s, settle: 5s, chunkSize: 10000 }
 * tables:
 *   - table: main.Invoice
 *     key: [InvoiceId]                               # default: the primary key
 *     cursor: [LastModified]                         # or [LastModified, InvoiceId] for timestamp+id
 *     kind: timestamp                                # optional: timestamp | id | timestamp+id
 *     overlap: 1d                                    # or a number of ids for an id cursor
 *     settle: 5s
 *     softDelete: IsDeleted
 *     chunkSize: 10000
 * </pre>
 * Every key but {@code source}, {@code tables} and each table's {@code table} and {@code cursor} may be left out:
 * its default applies. Relative SQLite files are resolved against the file's folder, never the current directory.
 */
public final class WatermarkConfigParser {
    private static final Set<String> TOP = Set.of("name", "source", "target", "control", "kafka", "every", "defaults", "tables");
    private static final Set<String> ENDPOINT = Set.of("url", "user", "password");
    private static final Set<String> KAFKA = Set.of("bootstrapServers", "topicPrefix", "partitions", "replicationFactor", "properties");
    private static final Set<String> DEFAULTS = Set.of("overlap", "settle", "chunkSize");
    private static final Set<String> TABLE = Set.of("table", "key", "cursor", "kind", "overlap", "settle", "softDelete", "chunkSize");

    private final dev.tidemark.connector.config.ConfigReader reader;
    private final List<String> problems;

    private final Path baseDir;

    private WatermarkConfigParser(Function<String, String> env, Path baseDir) {
        this.reader = new dev.tidemark.connector.config.ConfigReader(env);
        this.baseDir = baseDir;
        this.problems = reader.problems();
    }

    /** A parsed file: everything but the tables' source-dependent settings, which {@link TableSpec#resolve} finishes. */
    public record Parsed(String name, WatermarkConfig.Endpoint source, WatermarkConfig.Endpoint target,
                         WatermarkConfig.Endpoint control, KafkaConfig kafka, List<TableSpec> tables, Duration every) {
        public WatermarkConfig with(List<WatermarkTable> resolved) {
            return new WatermarkConfig(name, source, target, control, kafka, resolved, every);
        }
    }

    public static Parsed parse(Path file, Function<String, String> env) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ConfigException(file.toString(), List.of("cannot read file: " + e.getMessage()));
        }
        return parse(text, file.toString(), file.toAbsolutePath().getParent(), env);
    }

    public static Parsed parse(String yaml, String sourceName, Function<String, String> env) {
        return parse(yaml, sourceName, null, env);
    }

    /** @param baseDir relative SQLite files are resolved against it (the file's folder); null keeps them as written */
    public static Parsed parse(String yaml, String sourceName, Path baseDir, Function<String, String> env) {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(yaml);
        } catch (IOException e) {
            throw new ConfigException(sourceName, List.of(dev.tidemark.connector.config.ConfigReader.yamlError(e)));
        }
        if (root == null || !root.isObject()) {
            throw new ConfigException(sourceName, List.of("expected a mapping with keys " + TOP));
        }
        WatermarkConfigParser p = new WatermarkConfigParser(env, baseDir);
        Parsed parsed = p.build(root);
        if (!p.problems.isEmpty()) {
            throw new ConfigException(sourceName, p.problems);
        }
        return parsed;
    }

    private Parsed build(JsonNode root) {
        unknown(root, "", TOP);
        String name = text(root, "name", "name", "watermark");
        WatermarkConfig.Endpoint source = endpoint(root, "source", true);
        WatermarkConfig.Endpoint target = endpoint(root, "target", false);
        WatermarkConfig.Endpoint control = endpoint(root, "control", false);
        KafkaConfig kafka = null;
        if (root.has("kafka")) {
            JsonNode k = section(root, "kafka", KAFKA);
            Map<String, String> props = new LinkedHashMap<>();
            Iterator<Map.Entry<String, JsonNode>> it = k.path("properties").fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                props.put(e.getKey(), substitute("kafka.properties." + e.getKey(), e.getValue().asText()));
            }
            String bootstrap = text(k, "bootstrapServers", "kafka.bootstrapServers", null);
            if (bootstrap == null) {
                problems.add("Missing value for configuration kafka.bootstrapServers");
            }
            kafka = new KafkaConfig(bootstrap, text(k, "topicPrefix", "kafka.topicPrefix", name),
                    integer(k, "partitions", "kafka.partitions", 1), (short) integer(k, "replicationFactor", "kafka.replicationFactor", 1),
                    props);
        }
        if (kafka == null && target == null) {
            problems.add("Missing value for configuration target: direct mode writes into a JDBC target (or configure kafka)");
        }
        if (kafka == null && control != null) {
            problems.add("Invalid configuration control: in direct mode the control table lives in the target, committed with "
                    + "each chunk; a separate control database is for Kafka mode");
        }
        if (kafka != null && target == null && control == null) {
            problems.add("Missing value for configuration control: in Kafka mode the control table needs a database (control or target)");
        }
        Duration every = duration(root, "every", "every");
        JsonNode d = root.has("defaults") ? section(root, "defaults", DEFAULTS) : MissingNode.getInstance();
        String defOverlap = text(d, "overlap", "defaults.overlap", null);
        String defSettle = text(d, "settle", "defaults.settle", null);
        // Integer, not int: an absent key stays null (TableSpec applies the documented default) and is never unboxed
        Integer defChunk = d.has("chunkSize") ? Integer.valueOf(integer(d, "chunkSize", "defaults.chunkSize", WatermarkTable.DEFAULT_CHUNK)) : null;
        List<TableSpec> tables = new ArrayList<>();
        JsonNode ts = reader.list(root, "tables", "tables", "[{table: orders, cursor: modified}]");
        if (ts != null && ts.isEmpty()) {
            problems.add("Missing value for configuration tables: list the tables to poll");
        } else if (ts != null) {
            for (int i = 0; i < ts.size(); i++) {
                String k = "tables[" + i + "]";
                JsonNode t = ts.get(i);
                if (!t.isObject()) {
                    problems.add("Invalid value " + t + " for configuration " + k + ": expected a mapping with keys " + TABLE);
                    continue;
                }
                unknown(t, k + ".", TABLE);
                String table = text(t, "table", k + ".table", null);
                if (table == null) {
                    problems.add("Missing value for configuration " + k + ".table");
                }
                List<String> cursor = list(t, "cursor", k + ".cursor");
                if (cursor.isEmpty()) {
                    problems.add("Missing value for configuration " + k + ".cursor: the watermark column (or timestamp, id)");
                }
                String kind = text(t, "kind", k + ".kind", null);
                if (kind != null && !List.of("timestamp", "id", "timestamp+id").contains(kind)) {
                    problems.add("Invalid value " + kind + " for configuration " + k + ".kind: expected timestamp, id or timestamp+id");
                }
                String overlap = text(t, "overlap", k + ".overlap", defOverlap);
                if (overlap != null && !overlap.matches("\\d+")) {
                    checkDuration(overlap, k + ".overlap");
                }
                String settle = text(t, "settle", k + ".settle", defSettle);
                if (settle != null) {
                    checkDuration(settle, k + ".settle");
                }
                Integer chunk = t.has("chunkSize") ? Integer.valueOf(integer(t, "chunkSize", k + ".chunkSize", WatermarkTable.DEFAULT_CHUNK)) : defChunk;
                tables.add(new TableSpec(table, list(t, "key", k + ".key"), cursor, kind, overlap, settle,
                        text(t, "softDelete", k + ".softDelete", null), chunk));
            }
        }
        return new Parsed(name, source, target, control, kafka, tables, every);
    }

    private WatermarkConfig.Endpoint endpoint(JsonNode root, String key, boolean required) {
        if (!root.has(key)) {
            if (required) {
                problems.add("Missing value for configuration " + key + ": expected a mapping with keys " + ENDPOINT);
            }
            return null;
        }
        JsonNode n = section(root, key, ENDPOINT);
        String url = dev.tidemark.jdbc.JdbcEndpoints.relativeTo(text(n, "url", key + ".url", null), baseDir);
        if (url == null || !url.startsWith("jdbc:")) {
            if (url == null) {
                problems.add("Missing value for configuration " + key + ".url");
            } else {
                reader.invalid(key + ".url", url, "expected a JDBC URL");
            }
            return null;
        }
        return new WatermarkConfig.Endpoint(url, text(n, "user", key + ".user", null), Secret.of(text(n, "password", key + ".password", "")));
    }

    private JsonNode section(JsonNode root, String key, Set<String> allowed) {
        return reader.section(root, key, allowed);
    }

    private void unknown(JsonNode n, String prefix, Set<String> allowed) {
        reader.unknownKeys(n, prefix, allowed);
    }

    private String text(JsonNode parent, String field, String key, String fallback) {
        return reader.text(parent, field, key, fallback, false);
    }

    private List<String> list(JsonNode parent, String field, String key) {
        JsonNode n = parent.path(field);
        List<String> out = new ArrayList<>();
        if (n.isArray()) {
            n.forEach(e -> out.add(substitute(key, e.asText())));
        } else if (n.isValueNode() && !n.isNull()) {
            for (String s : substitute(key, n.asText()).split(",")) {
                if (!s.isBlank()) {
                    out.add(s.trim());
                }
            }
        }
        return out;
    }

    private int integer(JsonNode parent, String field, String key, int fallback) {
        return reader.integer(parent, field, key, fallback, 1, Integer.MAX_VALUE);
    }

    private Duration duration(JsonNode parent, String field, String key) {
        String raw = text(parent, field, key, null);
        return raw == null ? null : checkDuration(raw, key);
    }

    private Duration checkDuration(String raw, String key) {
        try {
            return Durations.parse(raw);
        } catch (IllegalArgumentException e) {
            problems.add("Invalid value " + raw + " for configuration " + key + ": " + e.getMessage());
            return null;
        }
    }

    private String substitute(String key, String value) {
        return reader.substitute(key, value);
    }
}
