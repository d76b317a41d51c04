package dev.tidemark.event;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The escaping that makes any table or schema name a topic-name part (pure): letters, digits and {@code _} stay as
 * they are; every other character becomes {@code -} and the two upper-case hex digits of each of its UTF-8 bytes
 * ({@code "Order Items"} → {@code Order-20Items}, {@code a.b} → {@code a-2Eb}). An escaped name holds no dot, and
 * {@code -} only ever starts an escape, so {@link #unescape} gives the name back.
 */
public final class NameEscape {
    private NameEscape() {
    }

    /** {@code name} with every character but {@code [A-Za-z0-9_]} written as {@code -XX} per UTF-8 byte. */
    public static String escape(String name) {
        StringBuilder out = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            if (cp < 128 && (Character.isLetterOrDigit(cp) || cp == '_')) {
                out.append((char) cp);
            } else {
                for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                    out.append('-').append(String.format(Locale.ROOT, "%02X", b & 0xff));
                }
            }
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    /**
     * The name {@link #escape} was given: each run of {@code -XX} (upper-case hex) decoded as UTF-8 bytes; a {@code -}
     * not followed by two upper-case hex digits stays as it is (a name that was never escaped).
     */
    public static String unescape(String escaped) {
        StringBuilder out = new StringBuilder(escaped.length());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < escaped.length(); ) {
            if (escaped.charAt(i) == '-' && i + 2 < escaped.length() && hex(escaped.charAt(i + 1)) && hex(escaped.charAt(i + 2))) {
                bytes.write(Integer.parseInt(escaped.substring(i + 1, i + 3), 16));
                i += 3;
                continue;
            }
            flush(bytes, out);
            out.append(escaped.charAt(i++));
        }
        flush(bytes, out);
        return out.toString();
    }

    private static boolean hex(char c) {
        return c >= '0' && c <= '9' || c >= 'A' && c <= 'F';
    }

    private static void flush(ByteArrayOutputStream bytes, StringBuilder out) {
        if (bytes.size() > 0) {
            out.append(bytes.toString(StandardCharsets.UTF_8));
            bytes.reset();
        }
    }
}
