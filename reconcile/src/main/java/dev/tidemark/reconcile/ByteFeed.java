package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;

/**
 * {@link CanonicalFeed} over UTF-8 bytes (PostgreSQL COPY fields, SQLite's concatenated rows): the same fast paths,
 * reading bytes straight from the array. A value that is not plain ASCII in one of the fast shapes is left to the
 * caller ({@link #feed} returns false having fed nothing), which decodes it and goes through {@link CanonicalFeed}.
 * A unit test holds the two together: for every ASCII input, feeding the bytes hashes exactly as feeding the text.
 */
final class ByteFeed {
    private ByteFeed() {
    }

    /**
     * Feeds {@code d[from, to)} as {@code kind} (without the end-of-value unit) when it takes a fast path.
     *
     * @param copyEscapes the bytes are a COPY text field, where a backslash starts an escape
     * @return whether it was fed
     */
    static boolean feed(byte[] d, int from, int to, ValueKind kind, RowHash h, boolean copyEscapes) {
        return switch (kind) {
            case TEXT -> h.asciiBytes(d, from, to, copyEscapes);
            case INTEGER -> {
                if (!plainInteger(d, from, to)) {
                    yield false;
                }
                h.bytes(d, from, to);
                yield true;
            }
            case DECIMAL -> decimal(d, from, to, h);
            case BOOLEAN -> bool(d, from, to, h);
            case TIMESTAMPTZ, TIMESTAMP -> dateTime(d, from, to, kind == ValueKind.TIMESTAMPTZ, h);
            case DATE -> {
                if (to - from != 10 || !datePart(d, from)) {
                    yield false;
                }
                h.bytes(d, from, to);
                yield true;
            }
            case TIME -> {
                if (to - from < 8 || !timePart(d, from) || !fractionOk(d, from + 8, to)) {
                    yield false;
                }
                h.bytes(d, from, from + 8);
                fraction(d, from + 8, to, h);
                yield true;
            }
            case BYTES -> hex(d, from, to, h, copyEscapes);
            case FLOAT -> false;
        };
    }

    private static boolean bool(byte[] d, int from, int to, RowHash h) {
        int n = to - from;
        byte c = n > 0 ? d[from] : 0;
        if (n == 1 && (c == 't' || c == '1') || n == 4 && c == 't' && d[from + 1] == 'r' && d[from + 2] == 'u' && d[from + 3] == 'e') {
            h.chars("true");
            return true;
        }
        if (n == 1 && (c == 'f' || c == '0')
                || n == 5 && c == 'f' && d[from + 1] == 'a' && d[from + 2] == 'l' && d[from + 3] == 's' && d[from + 4] == 'e') {
            h.chars("false");
            return true;
        }
        return false;
    }

    /** PostgreSQL's hex bytea ({@code \x0a0b}; in a COPY field the backslash is doubled) → lower-case hex digits. */
    private static boolean hex(byte[] d, int from, int to, RowHash h, boolean copyEscapes) {
        int prefix = copyEscapes ? 3 : 2;
        if (to - from < prefix || d[from] != '\\' || (copyEscapes && d[from + 1] != '\\') || d[from + prefix - 1] != 'x') {
            return false;
        }
        for (int i = from + prefix; i < to; i++) {
            byte b = d[i];
            if (b < 0 || b == '\\') {
                return false;
            }
        }
        for (int i = from + prefix; i < to; i++) {
            byte b = d[i];
            h.ch((char) (b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b));
        }
        return true;
    }

    private static boolean digits(byte[] d, int from, int to) {
        for (int i = from; i < to; i++) {
            byte c = d[i];
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static boolean plainInteger(byte[] d, int from, int to) {
        int i = from < to && d[from] == '-' ? from + 1 : from;
        if (i == to || to - i > 18) {
            return false;
        }
        if (d[i] == '0') {
            return to - i == 1 && i == from;
        }
        return digits(d, i, to);
    }

    private static boolean decimal(byte[] d, int from, int to, RowHash h) {
        int start = from < to && d[from] == '-' ? from + 1 : from;
        int dot = -1;
        for (int i = start; i < to; i++) {
            byte c = d[i];
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
        if (intEnd == start || (d[start] == '0' && intEnd - start > 1) || dot == to - 1) {
            return false;
        }
        int end = to;
        if (dot >= 0) {
            while (d[end - 1] == '0') {
                end--;
            }
            if (end == dot + 1) {
                end = dot;
            }
        }
        if (end - start == 1 && d[start] == '0') {
            h.ch('0');
            return true;
        }
        h.bytes(d, from, end);
        return true;
    }

    private static boolean datePart(byte[] d, int at) {
        return digits(d, at, at + 4) && d[at + 4] == '-' && digits(d, at + 5, at + 7) && d[at + 7] == '-' && digits(d, at + 8, at + 10);
    }

    private static boolean timePart(byte[] d, int at) {
        return digits(d, at, at + 2) && d[at + 2] == ':' && digits(d, at + 3, at + 5) && d[at + 5] == ':' && digits(d, at + 6, at + 8);
    }

    private static boolean dateTime(byte[] d, int from, int to, boolean zoned, RowHash h) {
        int n = to - from;
        if (n < 19 || !datePart(d, from) || (d[from + 10] != ' ' && d[from + 10] != 'T') || !timePart(d, from + 11)) {
            return false;
        }
        int end = to;
        if (zoned) {
            if (d[to - 1] == 'Z') {
                end = to - 1;
            } else if (n >= 22 && d[to - 3] == '+' && d[to - 2] == '0' && d[to - 1] == '0') {
                end = to - 3;
            } else if (n >= 25 && d[to - 6] == '+' && d[to - 5] == '0' && d[to - 4] == '0' && d[to - 3] == ':' && d[to - 2] == '0'
                    && d[to - 1] == '0') {
                end = to - 6;
            }
        }
        if (!fractionOk(d, from + 19, end)) {
            return false;
        }
        h.bytes(d, from, from + 10);
        h.ch('T');
        h.bytes(d, from + 11, from + 19);
        fraction(d, from + 19, end, h);
        if (zoned) {
            h.ch('Z');
        }
        return true;
    }

    private static boolean fractionOk(byte[] d, int from, int end) {
        if (from == end) {
            return true;
        }
        int digits = end - from - 1;
        return d[from] == '.' && digits >= 1 && digits <= 9 && digits(d, from + 1, end);
    }

    private static void fraction(byte[] d, int from, int end, RowHash h) {
        int digits = from == end ? 0 : end - from - 1;
        h.ch('.');
        boolean nanos = false;
        for (int i = from + 7; i < end; i++) {
            if (d[i] != '0') {
                nanos = true;
                break;
            }
        }
        int width = nanos ? 9 : 6;
        int copy = Math.min(digits, width);
        h.bytes(d, from + 1, from + 1 + copy);
        for (int i = copy; i < width; i++) {
            h.ch('0');
        }
    }
}
