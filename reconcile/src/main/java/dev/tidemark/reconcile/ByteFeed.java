package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;

/**
 * {@link CanonicalFeed} over UTF-8 bytes (PostgreSQL COPY fields, SQLite's concatenated rows): the same fast paths,
 * reading the bytes in place. The shapes of numbers, booleans and temporal values are {@link CanonicalFeed}'s own,
 * run over an {@link AsciiView} of the bytes: each accepts only ASCII characters, so a byte above 0x7F never passes.
 * Text and hex bytes, where an escape or a non-ASCII byte can occur, are checked here. A value that takes no fast path
 * is left to the caller ({@link #feed} returns false having fed nothing), which decodes it and goes through
 * {@link CanonicalFeed}. A unit test holds the two together: for every ASCII input, feeding the bytes hashes exactly
 * as feeding the text.
 */
final class ByteFeed {
    private ByteFeed() {
    }

    /**
     * Feeds {@code d[from, to)} as {@code kind} (without the end-of-value unit) when it takes a fast path.
     *
     * @param view        reused to see the bytes as characters
     * @param copyEscapes the bytes are a COPY text field, where a backslash starts an escape
     * @return whether it was fed
     */
    static boolean feed(byte[] d, int from, int to, ValueKind kind, RowHash h, AsciiView view, boolean copyEscapes) {
        return switch (kind) {
            case TEXT -> h.asciiBytes(d, from, to, copyEscapes);
            case BYTES -> hex(d, from, to, h, copyEscapes);
            case INTEGER, DECIMAL, BOOLEAN, TIMESTAMPTZ, TIMESTAMP, DATE, TIME, FLOAT ->
                    CanonicalFeed.fast(view.set(d, from, to), 0, to - from, kind, h);
        };
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
}
