package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;
import java.nio.charset.StandardCharsets;

/**
 * One field of raw UTF-8 row bytes (COPY text, SQLite row text) into a {@link RowHash} or a key: ASCII is read in
 * place, anything else decoded first, so the result equals the canonical text's. Pure functions.
 */
final class FieldBytes {
    private FieldBytes() {
    }

    /**
     * Feeds one UTF-8 value: in place when it is ASCII (and, for COPY, free of escapes), else decoded first.
     */
    static void feed(byte[] d, int from, int to, ValueKind kind, RowHash h, AsciiView view, boolean copyEscapes) {
        if (!ByteFeed.feed(d, from, to, kind, h, view, copyEscapes)) {
            String text = copyEscapes ? CopyParser.unescape(d, from, to) : new String(d, from, to - from, StandardCharsets.UTF_8);
            CanonicalFeed.feed(text, 0, text.length(), kind, h);
            return;
        }
        h.endValue();
    }

    /** A key's digits straight from the bytes; anything else through {@link #parseLong(CharSequence, int, int)}. */
    static long parseLong(byte[] d, int from, int to, AsciiView view) {
        if (to - from <= 18 && to > from) {
            boolean negative = d[from] == '-';
            long v = 0;
            int i = negative ? from + 1 : from;
            boolean ok = i < to;
            for (; i < to; i++) {
                byte c = d[i];
                if (c < '0' || c > '9') {
                    ok = false;
                    break;
                }
                v = v * 10 + (c - '0');
            }
            if (ok) {
                return negative ? -v : v;
            }
        }
        for (int i = from; i < to; i++) {
            if (d[i] < 0) {
                String text = new String(d, from, to - from, StandardCharsets.UTF_8);
                return parseLong(text, 0, text.length());
            }
        }
        return parseLong(view.set(d, from, to), 0, to - from);
    }

    private static long parseLong(CharSequence s, int from, int to) {
        if (to - from > 18) {
            return Long.parseLong(s.subSequence(from, to).toString().trim());
        }
        boolean negative = from < to && s.charAt(from) == '-';
        long v = 0;
        for (int i = negative ? from + 1 : from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return Long.parseLong(CanonicalValues.ofText(s.subSequence(from, to).toString(), ValueKind.INTEGER));
            }
            v = v * 10 + (c - '0');
        }
        return negative ? -v : v;
    }
}
