package dev.tidemark.connector.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.tidemark.jdbc.UrlMask;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shared half of every YAML configuration parser: reads typed values from a tree, substitutes {@code ${NAME}}
 * and {@code ${NAME:-default}} from the environment, and collects every problem (one line each, naming its key, in
 * the shape {@code Invalid value X for configuration K: why}) instead of stopping at the first. Values of keys
 * ending in {@code password} or {@code jaas.config} are never echoed. Not thread-safe: one reader per parse.
 */
public final class ConfigReader {
    private static final Pattern ENV = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");

    private final Function<String, String> env;
    private final List<String> problems = new ArrayList<>();

    public ConfigReader(Function<String, String> env) {
        this.env = env;
    }

    public List<String> problems() {
        return problems;
    }

    public void problem(String line) {
        problems.add(line);
    }

    public void invalid(String key, String value, String why) {
        problems.add("Invalid value " + (secret(key) ? "[hidden]" : UrlMask.mask(value))
                + " for configuration " + key + ": " + why);
    }

    /** Whether {@code key} holds a secret: a password, or a Kafka JAAS line ({@code kafka.properties.sasl.jaas.config}). */
    static boolean secret(String key) {
        String k = key.toLowerCase(java.util.Locale.ROOT);
        return k.endsWith("password") || k.endsWith("jaas.config");
    }

    public void missing(String key, String hint) {
        problems.add("Missing value for configuration " + key + (hint == null ? "" : ": " + hint));
    }

    /**
     * The one line for a file that is not YAML: where (line and column, 1-based) and the parser's reason, e.g.
     * {@code not valid YAML at line 3, column 8: while parsing a flow sequence}.
     */
    public static String yamlError(IOException e) {
        String reason = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        reason = reason == null ? "" : reason.lines().map(String::trim).filter(l -> !l.isEmpty()).findFirst().orElse("");
        JsonLocation at = e instanceof JsonProcessingException j ? j.getLocation() : null;
        return "not valid YAML" + (at != null && at.getLineNr() > 0 ? " at line " + at.getLineNr() + ", column " + at.getColumnNr() : "")
                + ": " + reason;
    }

    /**
     * A list under {@code field}: a missing one gives an empty list (the caller says whether that is a problem); a
     * single value or a mapping is a problem "expected a list", never read as a one-element list.
     */
    public JsonNode list(JsonNode parent, String field, String key, String example) {
        JsonNode n = parent.path(field);
        if (n.isMissingNode() || n.isNull() || n.isArray()) {
            return n.isArray() ? n : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        }
        invalid(key, n.isValueNode() ? n.asText() : n.toString(), "expected a list such as " + example);
        return null;
    }

    /** The mapping under {@code key}; a missing or non-mapping value is a problem and gives an empty node. */
    public JsonNode section(JsonNode root, String key, Set<String> allowed) {
        JsonNode n = root.path(key);
        if (!n.isObject()) {
            if (n.isMissingNode() || n.isNull()) {
                missing(key, "expected a mapping with keys " + allowed);
            } else {
                invalid(key, n.toString(), "expected a mapping with keys " + allowed);
            }
            return MissingNode.getInstance();
        }
        unknownKeys(n, key + ".", allowed);
        return n;
    }

    public void unknownKeys(JsonNode n, String prefix, Set<String> allowed) {
        n.fieldNames().forEachRemaining(f -> {
            if (!allowed.contains(f)) {
                problems.add("Unknown configuration " + prefix + f + " (allowed here: " + allowed + ")");
            }
        });
    }

    /** A single value, substituted; {@code fallback} when absent (a problem too when {@code required}). */
    public String text(JsonNode parent, String field, String key, String fallback, boolean required) {
        JsonNode n = parent.path(field);
        if (n.isMissingNode() || n.isNull()) {
            if (required) {
                missing(key, null);
            }
            return fallback;
        }
        if (!n.isValueNode()) {
            invalid(key, n.toString(), "expected a single value");
            return fallback;
        }
        return substitute(key, n.asText());
    }

    public int integer(JsonNode parent, String field, String key, int fallback, int min, int max) {
        String raw = text(parent, field, key, null, false);
        if (raw == null) {
            return fallback;
        }
        try {
            int v = Integer.parseInt(raw.trim());
            if (v < min || v > max) {
                invalid(key, raw, max == Integer.MAX_VALUE ? "must be at least " + min : "must be between " + min + " and " + max);
                return fallback;
            }
            return v;
        } catch (NumberFormatException e) {
            invalid(key, raw, "expected a whole number");
            return fallback;
        }
    }

    public boolean bool(JsonNode parent, String field, String key, boolean fallback) {
        String raw = text(parent, field, key, null, false);
        if (raw == null) {
            return fallback;
        }
        if ("true".equalsIgnoreCase(raw) || "false".equalsIgnoreCase(raw)) {
            return Boolean.parseBoolean(raw);
        }
        invalid(key, raw, "expected true or false");
        return fallback;
    }

    /** The mapping under {@code field} as text values, each substituted ({@code key.<name>} in problems); empty when absent. */
    public Map<String, String> properties(JsonNode parent, String field, String key) {
        Map<String, String> out = new LinkedHashMap<>();
        parent.path(field).fields().forEachRemaining(e -> out.put(e.getKey(), substitute(key + "." + e.getKey(), e.getValue().asText())));
        return out;
    }

    /** Replaces {@code ${NAME}} / {@code ${NAME:-default}}; an unset variable without default is a problem. */
    public String substitute(String key, String value) {
        if (value == null) {
            return null;
        }
        Matcher m = ENV.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = env.apply(m.group(1));
            if (v == null) {
                v = m.group(2);
            }
            if (v == null) {
                problems.add("Missing environment variable " + m.group(1) + " for configuration " + key);
                v = "";
            }
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        return out.toString();
    }
}
