package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;

/**
 * Feeds the canonical text of a value, given as a region of text, straight into a {@link RowHash} without building
 * strings: the streaming twin of {@link CanonicalValues#ofText}, for the hot path of segment checksums. For every
 * input, feeding it hashes exactly as {@code hash.value(CanonicalValues.ofText(text, kind))} would (a unit test holds
 * the two together); shapes without a fast path ({@link PlainShapes}) go through {@code ofText} itself.
 */
final class CanonicalFeed {
    private CanonicalFeed() {
    }

    /** Feeds {@code s[from, to)} as {@code kind}, followed by the end-of-value token. */
    static void feed(CharSequence s, int from, int to, ValueKind kind, RowHash h) {
        if (!fast(s, from, to, kind, h)) {
            h.chars(CanonicalValues.ofText(s.subSequence(from, to).toString(), kind));
        }
        h.endValue();
    }

    /**
     * Feeds {@code s[from, to)} as {@code kind} (without the end-of-value unit) when it has a plain shape; returns
     * false, having fed nothing, otherwise.
     */
    static boolean fast(CharSequence s, int from, int to, ValueKind kind, RowHash h) {
        return switch (kind) {
            case TEXT -> {
                h.chars(s, from, to);
                yield true;
            }
            case INTEGER -> copied(PlainShapes.plainInteger(s, from, to), s, from, to, h);
            case DECIMAL -> decimal(s, from, to, h);
            case BOOLEAN -> bool(s, from, to, h);
            case TIMESTAMPTZ, TIMESTAMP -> dateTime(s, from, to, kind == ValueKind.TIMESTAMPTZ, h);
            case DATE -> copied(to - from == 10 && PlainShapes.datePart(s, from), s, from, to, h);
            case TIME -> time(s, from, to, h);
            case BYTES -> hex(s, from, to, h);
            case FLOAT -> false;
        };
    }

    /** Feeds the region as it is when {@code plain}. */
    private static boolean copied(boolean plain, CharSequence s, int from, int to, RowHash h) {
        if (plain) {
            h.chars(s, from, to);
        }
        return plain;
    }

    private static boolean bool(CharSequence s, int from, int to, RowHash h) {
        int n = to - from;
        char c = n > 0 ? s.charAt(from) : 0;
        if (n == 1 && (c == 't' || c == '1') || n == 4 && regionIs(s, from, "true")) {
            h.chars("true");
            return true;
        }
        if (n == 1 && (c == 'f' || c == '0') || n == 5 && regionIs(s, from, "false")) {
            h.chars("false");
            return true;
        }
        return false;
    }

    /** PostgreSQL's hex bytea ({@code \x0a0b}) → lower-case hex digits. */
    private static boolean hex(CharSequence s, int from, int to, RowHash h) {
        if (to - from < 2 || s.charAt(from) != '\\' || s.charAt(from + 1) != 'x') {
            return false;
        }
        for (int i = from + 2; i < to; i++) {
            h.ch(Character.toLowerCase(s.charAt(i)));
        }
        return true;
    }

    private static boolean regionIs(CharSequence s, int from, String word) {
        for (int i = 0; i < word.length(); i++) {
            if (s.charAt(from + i) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean decimal(CharSequence s, int from, int to, RowHash h) {
        int end = PlainShapes.plainDecimalEnd(s, from, to);
        if (end < 0) {
            return false;
        }
        if (PlainShapes.zero(s, from, end)) {
            h.ch('0');
        } else {
            h.chars(s, from, end);
        }
        return true;
    }

    private static boolean time(CharSequence s, int from, int to, RowHash h) {
        if (to - from < 8 || !PlainShapes.timePart(s, from) || !PlainShapes.fraction(s, from + 8, to)) {
            return false;
        }
        h.chars(s, from, from + 8);
        fraction(s, from + 8, to, h);
        return true;
    }

    private static boolean dateTime(CharSequence s, int from, int to, boolean zoned, RowHash h) {
        if (!PlainShapes.dateTimeHead(s, from, to)) {
            return false;
        }
        int end = zoned ? PlainShapes.beforeUtc(s, from, to) : to;
        if (!PlainShapes.fraction(s, from + 19, end)) {
            return false;
        }
        h.chars(s, from, from + 10);
        h.ch('T');
        h.chars(s, from + 11, from + 19);
        fraction(s, from + 19, end, h);
        if (zoned) {
            h.ch('Z');
        }
        return true;
    }

    /** {@code .ffffff}, or nine digits when the value has nanoseconds; the input was checked by {@link PlainShapes#fraction}. */
    private static void fraction(CharSequence s, int from, int end, RowHash h) {
        int digits = from == end ? 0 : end - from - 1;
        h.ch('.');
        int width = PlainShapes.nanos(s, from, end) ? 9 : 6;
        int copy = Math.min(digits, width);
        h.chars(s, from + 1, from + 1 + copy);
        for (int i = copy; i < width; i++) {
            h.ch('0');
        }
    }
}
