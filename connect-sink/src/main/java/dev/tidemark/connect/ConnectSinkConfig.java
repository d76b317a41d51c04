package dev.tidemark.connect;

import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The plugin's settings, declared once as a {@link ConfigDef} (Connect's REST {@code validate} and its UI read it) and
 * parsed into an immutable {@link ConnectSinkSettings}. A bad value fails with Connect's one-line shape
 * {@code Invalid value X for configuration K: why}; a URL in such a message is masked ({@link UrlMask}); the password
 * is of type {@link Type#PASSWORD}, which prints {@code [hidden]}.
 *
 * <p>Connect's own keys ({@code topics}/{@code topics.regex}, {@code tasks.max}, {@code errors.*}, converters) are
 * Connect's: this class reads only {@code name} (the default pipeline) and the two {@code errors.*} keys that say
 * whether dead letters are wanted (see {@link PoisonRoute}).
 */
public final class ConnectSinkConfig {
    public static final String TARGET_URL = "target.url";
    public static final String TARGET_USER = "target.user";
    public static final String TARGET_PASSWORD = "target.password";
    public static final String PIPELINE = "pipeline";
    public static final String BATCH_SIZE = "batch.size";
    public static final String POSITION_COLUMN = "position.column";
    public static final String APPLY_TRUNCATE = "apply.truncate";
    public static final String DELETE_MODE = "delete.mode";
    public static final String TARGET_TABLES = TargetTablesSetting.KEY;
    /** Connect's connector name key, the default pipeline name. */
    static final String CONNECTOR_NAME = "name";
    static final String ERRORS_TOLERANCE = "errors.tolerance";
    static final String DLQ_TOPIC = "errors.deadletterqueue.topic.name";
    static final String VALUE_CONVERTER = "value.converter";
    static final String KEY_CONVERTER = "key.converter";

    /** The definition Connect validates connector configurations against. */
    public static final ConfigDef DEFINITION = new ConfigDef()
            .define(TARGET_URL, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, ConnectSinkConfig::validateUrl, Importance.HIGH,
                    "JDBC URL of the target: jdbc:postgresql://…, jdbc:mariadb://… or jdbc:sqlite:<file>.")
            .define(TARGET_USER, Type.STRING, null, Importance.HIGH, "User for the target (none for SQLite).")
            .define(TARGET_PASSWORD, Type.PASSWORD, null, Importance.HIGH, "Password for the target; never printed.")
            .define(PIPELINE, Type.STRING, "", Importance.MEDIUM,
                    "Name the offsets are stored under in the target's tidemark_offsets; default: the connector's name."
                            + " Equal to a 'tidemark sink' pipeline's name, the plugin continues where that sink stopped.")
            .define(BATCH_SIZE, Type.INT, 500, ConfigDef.Range.atLeast(1), Importance.MEDIUM,
                    "Most records applied in one target transaction (a put() larger than this is applied in several).")
            .define(POSITION_COLUMN, Type.STRING, SinkOptions.DEFAULT_POSITION_COLUMN, new ConfigDef.NonEmptyString(),
                    Importance.LOW, "Metadata column holding each row's source position (the position guard).")
            .define(APPLY_TRUNCATE, Type.BOOLEAN, false, Importance.LOW,
                    "Whether truncate events empty the target table; when false they stop the task naming the table.")
            .define(DELETE_MODE, Type.STRING, "hard", ConfigDef.ValidString.in("hard", "soft"), Importance.LOW,
                    "hard removes deleted rows; soft keeps the key with __tidemark_deleted = true.")
            .define(TARGET_TABLES, Type.LIST, "", (k, v) -> TargetTablesSetting.parse(listOf(v)), Importance.MEDIUM,
                    "Target table of source tables named explicitly, as schema.table:target_table,… (such as "
                            + "sales.orders:sales_orders); every other table is written to its name without schema.");

    private ConnectSinkConfig() {
    }

    /** A bad value of {@code key}: {@code value} as shown, and why it is refused. */
    record Problem(String key, String value, String why) {
        /** Connect's one-line shape: {@code Invalid value X for configuration K: why}. */
        ConfigException exception() {
            return new ConfigException(key, value, why);
        }
    }

    /**
     * Parses a connector or task configuration.
     *
     * @throws ConfigException naming the first bad key
     */
    public static ConnectSinkSettings parse(Map<String, String> props) {
        AbstractConfig c = new AbstractConfig(DEFINITION, props, false);
        String pipeline = c.getString(PIPELINE);
        if (pipeline.isBlank()) {
            pipeline = props.getOrDefault(CONNECTOR_NAME, "");
        }
        if (pipeline.isBlank()) {
            throw new ConfigException(PIPELINE, "", "no pipeline name and no connector name to default to");
        }
        SinkOptions options;
        try {
            options = new SinkOptions(pipeline, c.getString(POSITION_COLUMN), c.getBoolean(APPLY_TRUNCATE),
                    SinkOptions.DeleteMode.valueOf(c.getString(DELETE_MODE).toUpperCase(Locale.ROOT)))
                    .withTargetTables(TargetTablesSetting.parse(c.getList(TARGET_TABLES)));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(POSITION_COLUMN, c.getString(POSITION_COLUMN), e.getMessage());
        }
        List<Problem> converters = converterProblems(props);
        if (!converters.isEmpty()) {
            throw converters.get(0).exception();
        }
        Password password = c.getPassword(TARGET_PASSWORD);
        return new ConnectSinkSettings(c.getString(TARGET_URL), c.getString(TARGET_USER), password == null ? new Password(null) : password,
                options, c.getInt(BATCH_SIZE),
                PoisonRoute.configured(props.get(ERRORS_TOLERANCE), props.get(DLQ_TOPIC)));
    }

    /**
     * What the task cannot read in the converters given to the connector, each in Connect's one-line shape (empty when
     * none): a {@code JsonConverter} must keep schemas, for the key and the value (the decoder needs the types and the
     * key's table name), and for the value keep NULLs ({@code replace.null.with.default=false}: by default it writes a
     * column's default where the source row holds NULL, since Debezium puts column defaults in the schema).
     * {@code ByteArrayConverter} and {@code StringConverter} hand over the bytes as written and always pass. Settings
     * made on the worker instead of the connector are not visible here (docs/connect.md says so).
     */
    static List<Problem> converterProblems(Map<String, String> props) {
        List<Problem> problems = new ArrayList<>();
        if (isJson(props.get(VALUE_CONVERTER))) {
            String nulls = props.get(VALUE_CONVERTER + ".replace.null.with.default");
            if (nulls == null || !"false".equalsIgnoreCase(nulls.trim())) {
                problems.add(new Problem(VALUE_CONVERTER + ".replace.null.with.default", nulls == null ? "true (the default)" : nulls,
                        "JsonConverter would write a column's default where the source row holds NULL; set it to false,"
                                + " or use org.apache.kafka.connect.converters.ByteArrayConverter"));
            }
            schemasOff(props, VALUE_CONVERTER, "the schemas of the change events").ifPresent(problems::add);
        }
        if (isJson(props.get(KEY_CONVERTER))) {
            schemasOff(props, KEY_CONVERTER, "the key's schema (its table name and key columns)").ifPresent(problems::add);
        }
        return problems;
    }

    private static boolean isJson(String converter) {
        return converter != null && converter.trim().endsWith(".JsonConverter");
    }

    private static Optional<Problem> schemasOff(Map<String, String> props, String converter, String needs) {
        String schemas = props.getOrDefault(converter + ".schemas.enable", "true");
        return "true".equalsIgnoreCase(schemas.trim()) ? Optional.empty()
                : Optional.of(new Problem(converter + ".schemas.enable", schemas,
                        "the sink needs " + needs + "; remove it, or use org.apache.kafka.connect.converters.ByteArrayConverter"));
    }

    @SuppressWarnings("unchecked")
    private static List<String> listOf(Object value) {
        return value == null ? List.of() : (List<String>) value;
    }

    private static void validateUrl(String key, Object value) {
        String url = value == null ? "" : value.toString().trim();
        if (url.isEmpty()) {
            throw new ConfigException(key, "", "a JDBC URL is required (jdbc:postgresql://…, jdbc:mariadb://…, jdbc:sqlite:<file>)");
        }
        try {
            Databases.targetForUrl(url);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(key, UrlMask.mask(url), e.getMessage());
        }
    }

    /** The connection properties for the target: user and password where given. */
    static Properties connectionProperties(ConnectSinkSettings s) {
        Properties p = new Properties();
        if (s.user() != null && !s.user().isBlank()) {
            p.setProperty("user", s.user());
        }
        if (s.password().value() != null) {
            p.setProperty("password", s.password().value());
        }
        return p;
    }
}
