package dev.tidemark.connector.config;

import dev.tidemark.event.NameEscape;
import dev.tidemark.event.TableId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The one rule naming a captured table's Kafka topic (pure), used by capture (through Debezium's topic naming), the
 * sink, {@code status} and {@code drop} alike. A table's topic is its entry in {@code kafka.topics} when it has one,
 * else {@code <kafka.topicPrefix>.<schema>.<table>} with schema and table escaped: letters, digits and {@code _} stay
 * as they are; every other character (a space, a dot, a hyphen, any non-ASCII letter) becomes {@code -} and the two
 * upper-case hex digits of each of its UTF-8 bytes ({@code "Order Items"} → {@code Order-20Items},
 * {@code a.b} → {@code a-2Eb}, {@code my-table} → {@code my-2Dtable}). Escaped names never contain a dot, so the dots
 * between prefix, schema and table keep any two tables apart, and {@code -} only ever starts an escape, so the rule is
 * one-to-one.
 *
 * <p>A topic name Kafka accepts has 1 to 249 characters of {@code [A-Za-z0-9._-]} and is not {@code .} or {@code ..};
 * two topics that differ only in {@code .} versus {@code _} collide in Kafka's metrics and are refused too.
 */
public final class TopicNames {
    /** Kafka's longest topic name. */
    public static final int MAX_LENGTH = 249;
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._-]+");

    private TopicNames() {
    }

    /** The topic of {@code table}: its explicit entry in {@code explicit}, else the escaped default. */
    public static String of(String prefix, TableId table, Map<TableId, String> explicit) {
        String named = explicit.get(table);
        return named != null ? named : of(prefix, table);
    }

    /** The default topic of {@code table}: {@code <prefix>.<escaped schema>.<escaped table>}. */
    public static String of(String prefix, TableId table) {
        return prefix + "." + (table.schema().isEmpty() ? "" : escape(table.schema()) + ".") + escape(table.table());
    }

    /** {@code name} with every character but {@code [A-Za-z0-9_]} written as {@code -XX} per UTF-8 byte ({@link NameEscape}). */
    public static String escape(String name) {
        return NameEscape.escape(name);
    }

    /** Why Kafka would refuse {@code topic} as a topic name; empty when it is valid. */
    public static Optional<String> invalid(String topic) {
        if (topic == null || topic.isEmpty()) {
            return Optional.of("a topic name cannot be empty");
        }
        if (topic.equals(".") || topic.equals("..")) {
            return Optional.of("a topic name cannot be '.' or '..'");
        }
        if (topic.length() > MAX_LENGTH) {
            return Optional.of("a topic name has at most " + MAX_LENGTH + " characters, this one " + topic.length());
        }
        if (!VALID.matcher(topic).matches()) {
            return Optional.of("a topic name has only letters, digits, '.', '_' and '-'");
        }
        return Optional.empty();
    }

    /**
     * Every problem with the topics of {@code tables} (each a one-line message naming the table and its topic): a name
     * Kafka refuses, or two tables on one topic (also when their names differ only in '.' versus '_').
     */
    public static List<String> problems(String prefix, Collection<TableId> tables, Map<TableId, String> explicit) {
        List<String> out = new ArrayList<>();
        Map<String, TableId> byCollisionKey = new LinkedHashMap<>();
        for (TableId t : tables) {
            String topic = of(prefix, t, explicit);
            Optional<String> why = invalid(topic);
            if (why.isPresent()) {
                out.add("table " + t + ": topic '" + topic + "' is not a valid Kafka topic name (" + why.get() + "); "
                        + (explicit.containsKey(t) ? "change its entry in kafka.topics" : "choose another kafka.topicPrefix, or name its topic in kafka.topics"));
                continue;
            }
            TableId other = byCollisionKey.putIfAbsent(topic.replace('.', '_'), t);
            if (other != null) {
                out.add("tables " + other + " and " + t + " would share topic '" + of(prefix, other, explicit) + "'"
                        + (of(prefix, other, explicit).equals(topic) ? "" : " (Kafka takes '" + topic + "' for the same name)")
                        + "; name one of them in kafka.topics");
            }
        }
        return out;
    }

    /** @throws dev.tidemark.jdbc.UsageException listing every {@link #problems problem}, when there is one */
    public static void requireValid(KafkaConfig kafka, Collection<TableId> tables) {
        List<String> problems = problems(kafka.topicPrefix(), tables, kafka.topics());
        if (!problems.isEmpty()) {
            throw new dev.tidemark.jdbc.UsageException(String.join("; ", problems));
        }
    }

    /**
     * The explicit topics as one property value ({@code <escaped schema>.<escaped table>=<topic>,…}), for Debezium's
     * topic naming ({@link #decode}); escaped names and topics never contain {@code =} or {@code ,}.
     */
    public static String encode(Map<TableId, String> explicit) {
        List<String> parts = new ArrayList<>();
        explicit.forEach((t, topic) -> parts.add(key(t.schema(), t.table()) + "=" + topic));
        return String.join(",", parts);
    }

    /** The map {@link #encode} wrote, keyed by {@link #key}. */
    public static Map<String, String> decode(String encoded) {
        Map<String, String> out = new LinkedHashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return out;
        }
        for (String part : encoded.split(",")) {
            int eq = part.indexOf('=');
            out.put(part.substring(0, eq), part.substring(eq + 1));
        }
        return out;
    }

    /** The key of a table in {@link #decode}'s map. */
    public static String key(String schema, String table) {
        return escape(schema) + "." + escape(table);
    }
}
