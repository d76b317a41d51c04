package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;

/**
 * Feeds the canonical text of a value, given as a region of text, straight into a {@link RowHash} without building
 * strings: the streaming twin of {@link CanonicalValues#ofText}, for the hot path of segment checksums. For every
 * input, feeding it hashes exactly as {@code hash.value(CanonicalValues.ofText(text, kind))} would (a unit test holds
 * the two together); shapes without a fast path go through {@code ofText} itself.
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

    private static boolean fast(CharSequence s, int from, int to, ValueKind kind, RowHash h) {
        switch (kind) {
            case TEXT -> {
                h.chars(s, from, to);
                return true;
            }
            case INTEGER -> {
                if (!plainInteger(s, from, to)) {
                    return false;
                }
                h.chars(s, from, to);
                return true;
            }
            case DECIMAL -> {
                return decimal(s, from, to, h);
            }
            case BOOLEAN -> {
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
            case TIMESTAMPTZ, TIMESTAMP -> {
                return dateTime(s, from, to, kind == ValueKind.TIMESTAMPTZ, h);
            }
            case DATE -> {
                if (to - from != 10 || !datePart(s, from)) {
                    return false;
                }
                h.chars(s, from, to);
                return true;
            }
            case TIME -> {
                if (to - from < 8 || !timePart(s, from) || !fractionOk(s, from + 8, to)) {
                    return false;
                }
                h.chars(s, from, from + 8);
                fraction(s, from + 8, to, h);
                return true;
            }
            case BYTES -> {
                if (to - from < 2 || s.charAt(from) != '\\' || s.charAt(from + 1) != 'x') {
                    return false;
                }
                for (int i = from + 2; i < to; i++) {
                    h.ch(Character.toLowerCase(s.charAt(i)));
                }
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    private static boolean regionIs(CharSequence s, int from, String word) {
        for (int i = 0; i < word.length(); i++) {
            if (s.charAt(from + i) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean plainInteger(CharSequence s, int from, int to) {
        int i = from < to && s.charAt(from) == '-' ? from + 1 : from;
        if (i == to || to - i > 18) {
            return false;
        }
        if (s.charAt(i) == '0') {
            return to - i == 1 && i == from;
        }
        return digits(s, i, to);
    }

    private static boolean decimal(CharSequence s, int from, int to, RowHash h) {
        int start = from < to && s.charAt(from) == '-' ? from + 1 : from;
        int dot = -1;
        for (int i = start; i < to; i++) {
            char c = s.charAt(i);
            if (c == '.') {
                if (dot >= 0) {
                    return false;
                }
                dot = i;
            } else if (c < '0' || c > '9') {
                return false;
            }
        }
        int intEnd = dot < 0 ? to : dot;
        if (intEnd == start || (s.charAt(start) == '0' && intEnd - start > 1) || dot == to - 1) {
            return false;
        }
        int end = to;
        if (dot >= 0) {
            while (s.charAt(end - 1) == '0') {
                end--;
            }
            if (end == dot + 1) {
                end = dot;
            }
        }
        // "0" and "-0" (after stripping) are zero
        if (end - start == 1 && s.charAt(start) == '0') {
            h.ch('0');
            return true;
        }
        h.chars(s, from, end);
        return true;
    }

    private static boolean digits(CharSequence s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static boolean datePart(CharSequence s, int at) {
        return digits(s, at, at + 4) && s.charAt(at + 4) == '-' && digits(s, at + 5, at + 7) && s.charAt(at + 7) == '-'
                && digits(s, at + 8, at + 10);
    }

    private static boolean timePart(CharSequence s, int at) {
        return digits(s, at, at + 2) && s.charAt(at + 2) == ':' && digits(s, at + 3, at + 5) && s.charAt(at + 5) == ':'
                && digits(s, at + 6, at + 8);
    }

    private static boolean dateTime(CharSequence s, int from, int to, boolean zoned, RowHash h) {
        int n = to - from;
        if (n < 19 || !datePart(s, from) || (s.charAt(from + 10) != ' ' && s.charAt(from + 10) != 'T') || !timePart(s, from + 11)) {
            return false;
        }
        int end = to;
        if (zoned) {
            if (s.charAt(to - 1) == 'Z') {
                end = to - 1;
            } else if (n >= 22 && s.charAt(to - 3) == '+' && s.charAt(to - 2) == '0' && s.charAt(to - 1) == '0') {
                end = to - 3;
            } else if (n >= 25 && s.charAt(to - 6) == '+' && s.charAt(to - 5) == '0' && s.charAt(to - 4) == '0'
                    && s.charAt(to - 3) == ':' && s.charAt(to - 2) == '0' && s.charAt(to - 1) == '0') {
                end = to - 6;
            }
        }
        if (!fractionOk(s, from + 19, end)) {
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

    private static boolean fractionOk(CharSequence s, int from, int end) {
        if (from == end) {
            return true;
        }
        int digits = end - from - 1;
        return s.charAt(from) == '.' && digits >= 1 && digits <= 9 && digits(s, from + 1, end);
    }

    /** {@code .ffffff}, or nine digits when the value has nanoseconds; the input was checked by fractionOk. */
    private static void fraction(CharSequence s, int from, int end, RowHash h) {
        int digits = from == end ? 0 : end - from - 1;
        h.ch('.');
        boolean nanos = false;
        for (int i = from + 7; i < end; i++) {
            if (s.charAt(i) != '0') {
                nanos = true;
                break;
            }
        }
        int width = nanos ? 9 : 6;
        int copy = Math.min(digits, width);
        h.chars(s, from + 1, from + 1 + copy);
        for (int i = copy; i < width; i++) {
            h.ch('0');
        }
    }
}
