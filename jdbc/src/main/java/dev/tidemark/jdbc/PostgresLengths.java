package dev.tidemark.jdbc;

import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The declared length of PostgreSQL's length-limited string types, as {@code format_type} names them, and the cast
 * that keeps a value whole. Pure: no database.
 *
 * <p>An explicit cast cuts silently ({@code CAST('abcdef' AS varchar(3))} is {@code 'abc'}), where an insert of the
 * same value fails. Set-based writes therefore cast bound text to the type without its length
 * ({@code character varying(3)} → {@code character varying}, {@code character(3)} → {@code bpchar},
 * {@code bit(3)} / {@code bit varying(3)} → {@code bit varying}, arrays alike): nothing is cut in the cast, and the
 * insert's own assignment checks the length. The sink also checks lengths before it writes (see
 * {@link #declaredLength}) so the refusal names table, column and key.
 */
public final class PostgresLengths {
    private static final Pattern LIMITED = Pattern.compile("(character varying|character|bit varying|bit)\\((\\d+)\\)(\\[\\])*");

    /** Declared lengths by catalog type name: a handful of distinct types per target. */
    private static final Map<String, OptionalInt> LENGTHS = new ConcurrentHashMap<>();

    private PostgresLengths() {
    }

    /**
     * {@code type} without its length where a cast to it would cut a value; any other type unchanged.
     * Example: {@code character varying(3)[]} → {@code character varying[]}.
     */
    public static String castType(String type) {
        Matcher m = LIMITED.matcher(type);
        if (!m.matches()) {
            return type;
        }
        String base = switch (m.group(1)) {
            case "character" -> "bpchar";
            case "bit" -> "bit varying";
            default -> m.group(1);
        };
        return base + type.substring(m.end(2) + 1);
    }

    /**
     * The most characters a value of {@code type} may have: {@code n} of {@code character varying(n)} and
     * {@code character(n)}; empty for any other type (arrays included: their elements are not checked here).
     */
    public static OptionalInt declaredLength(String type) {
        return LENGTHS.computeIfAbsent(type, PostgresLengths::parseLength); // per value on the write path: parse a type once
    }

    private static OptionalInt parseLength(String type) {
        Matcher m = LIMITED.matcher(type);
        if (!m.matches() || m.group(3) != null || m.group(1).startsWith("bit")) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(Integer.parseInt(m.group(2)));
    }

    /**
     * Whether {@code text} fits {@code type} whole. {@code character(n)} takes trailing spaces beyond {@code n}
     * (blank-padded: they carry no meaning there); {@code character varying(n)} does not, since PostgreSQL would
     * drop them silently and {@code 'a'} and {@code 'a '} would become one key.
     */
    public static boolean fits(String text, String type) {
        OptionalInt n = declaredLength(type);
        if (n.isEmpty() || text == null) {
            return true;
        }
        String t = type.startsWith("character(") ? text.stripTrailing() : text;
        return t.codePointCount(0, t.length()) <= n.getAsInt();
    }
}
