package dev.tidemark.connector.watermark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.tidemark.connector.config.ConfigFile;
import dev.tidemark.connector.config.ConfigReader;
import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.jdbc.Durations;
import dev.tidemark.jdbc.JdbcEndpoints;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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

    private final ConfigReader reader;
    private final List<String> problems;
    private final Path baseDir;

    private WatermarkConfigParser(ConfigReader reader, Path baseDir) {
        this.reader = reader;
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

    /** The defaults a table's {@code overlap}, {@code settle} and {@code chunkSize} fall back to (null: none given). */
    private record Defaults(String overlap, String settle, Integer chunkSize) {
    }

    public static Parsed parse(Path file, Function<String, String> env) {
        return parse(ConfigFile.read(file), file.toString(), file.toAbsolutePath().getParent(), env);
    }

    public static Parsed parse(String yaml, String sourceName, Function<String, String> env) {
        return parse(yaml, sourceName, null, env);
    }

    /** @param baseDir relative SQLite files are resolved against it (the file's folder); null keeps them as written */
    public static Parsed parse(String yaml, String sourceName, Path baseDir, Function<String, String> env) {
        return ConfigFile.parse(yaml, sourceName, TOP, env, (reader, root) -> new WatermarkConfigParser(reader, baseDir).build(root));
    }

    private Parsed build(JsonNode root) {
        unknown(root, "", TOP);
        String name = text(root, "name", "name", "watermark");
        WatermarkConfig.Endpoint source = endpoint(root, "source", true);
        WatermarkConfig.Endpoint target = endpoint(root, "target", false);
        WatermarkConfig.Endpoint control = endpoint(root, "control", false);
        KafkaConfig kafka = root.has("kafka") ? kafka(section(root, "kafka", KAFKA), name) : null;
        checkMode(kafka, target, control);
        Duration every = duration(root, "every", "every");
        return new Parsed(name, source, target, control, kafka, tables(root, defaults(root)), every);
    }

    private KafkaConfig kafka(JsonNode k, String name) {
        Map<String, String> props = reader.properties(k, "properties", "kafka.properties");
        String bootstrap = text(k, "bootstrapServers", "kafka.bootstrapServers", null);
        if (bootstrap == null) {
            problems.add("Missing value for configuration kafka.bootstrapServers");
        }
        return new KafkaConfig(bootstrap, text(k, "topicPrefix", "kafka.topicPrefix", name),
                integer(k, "partitions", "kafka.partitions", 1), (short) integer(k, "replicationFactor", "kafka.replicationFactor", 1),
                props);
    }

    /** Direct mode needs a target and no control database; Kafka mode a database for the control table. */
    private void checkMode(KafkaConfig kafka, WatermarkConfig.Endpoint target, WatermarkConfig.Endpoint control) {
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
    }

    private Defaults defaults(JsonNode root) {
        JsonNode d = root.has("defaults") ? section(root, "defaults", DEFAULTS) : MissingNode.getInstance();
        String overlap = text(d, "overlap", "defaults.overlap", null);
        String settle = text(d, "settle", "defaults.settle", null);
        // Integer, not int: an absent key stays null (TableSpec applies the documented default) and is never unboxed
        Integer chunk = d.has("chunkSize") ? Integer.valueOf(integer(d, "chunkSize", "defaults.chunkSize", WatermarkTable.DEFAULT_CHUNK)) : null;
        return new Defaults(overlap, settle, chunk);
    }

    private List<TableSpec> tables(JsonNode root, Defaults defaults) {
        List<TableSpec> tables = new ArrayList<>();
        JsonNode ts = reader.list(root, "tables", "tables", "[{table: orders, cursor: modified}]");
        if (ts != null && ts.isEmpty()) {
            problems.add("Missing value for configuration tables: list the tables to poll");
        } else if (ts != null) {
            for (int i = 0; i < ts.size(); i++) {
                JsonNode t = ts.get(i);
                if (!t.isObject()) {
                    problems.add("Invalid value " + t + " for configuration tables[" + i + "]: expected a mapping with keys " + TABLE);
                    continue;
                }
                tables.add(table(t, "tables[" + i + "]", defaults));
            }
        }
        return tables;
    }

    /** One entry of {@code tables} ({@code k}: its key, such as {@code tables[0]}). */
    private TableSpec table(JsonNode t, String k, Defaults defaults) {
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
        String overlap = text(t, "overlap", k + ".overlap", defaults.overlap());
        if (overlap != null && !overlap.matches("\\d+")) {
            checkDuration(overlap, k + ".overlap");
        }
        String settle = text(t, "settle", k + ".settle", defaults.settle());
        if (settle != null) {
            checkDuration(settle, k + ".settle");
        }
        Integer chunk = t.has("chunkSize") ? Integer.valueOf(integer(t, "chunkSize", k + ".chunkSize", WatermarkTable.DEFAULT_CHUNK))
                : defaults.chunkSize();
        return new TableSpec(table, list(t, "key", k + ".key"), cursor, kind, overlap, settle,
                text(t, "softDelete", k + ".softDelete", null), chunk);
    }

    private WatermarkConfig.Endpoint endpoint(JsonNode root, String key, boolean required) {
        if (!root.has(key)) {
            if (required) {
                problems.add("Missing value for configuration " + key + ": expected a mapping with keys " + ENDPOINT);
            }
            return null;
        }
        JsonNode n = section(root, key, ENDPOINT);
        String url = JdbcEndpoints.relativeTo(text(n, "url", key + ".url", null), baseDir);
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
