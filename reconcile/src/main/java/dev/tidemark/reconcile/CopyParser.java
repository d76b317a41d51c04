package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * PostgreSQL's COPY text format → canonical text per field ({@link #parse}) or straight into row hashes
 * ({@link #hash}): fields split on tabs, rows on newlines, {@code \\N} is NULL, backslash escapes undone. Holds one
 * row's scratch values: one parser per stream, not thread-safe.
 */
final class CopyParser {
    private final List<ValueKind> kinds;
    private final String[] values;

    CopyParser(List<ValueKind> kinds) {
        this.kinds = kinds;
        this.values = new String[kinds.size()];
    }

    /** Parses one or more complete rows (each ending in a newline) and hands each to {@code sink}. */
    int parse(byte[] data, TableSide.RowSink sink) {
        int rows = 0;
        int field = 0;
        int start = 0;
        for (int i = 0; i < data.length; i++) {
            byte b = data[i];
            if (b == '\t' || b == '\n') {
                if (field < values.length) {
                    values[field] = CanonicalValues.ofText(field(data, start, i), kinds.get(field));
                }
                field++;
                start = i + 1;
                if (b == '\n') {
                    if (field != values.length) {
                        throw new IllegalStateException("COPY row with " + field + " fields, expected " + values.length);
                    }
                    sink.accept(values);
                    rows++;
                    field = 0;
                }
            }
        }
        if (start != data.length) {
            throw new IllegalStateException("COPY data does not end with a complete row");
        }
        return rows;
    }

    /** Parses complete rows and hands each row's first key and hash to {@code sink}. */
    int hash(byte[] data, int key, RowHash h, TableSide.HashSink sink) {
        int rows = 0;
        int field = 0;
        int start = 0;
        long k = 0;
        h.begin();
        for (int i = 0; i < data.length; i++) {
            byte b = data[i];
            if (b == '\t' || b == '\n') {
                if (field < values.length) {
                    feedField(data, start, i, kinds.get(field), h);
                    if (field == key) {
                        k = FieldBytes.parseLong(data, start, i, view);
                    }
                }
                field++;
                start = i + 1;
                if (b == '\n') {
                    if (field != values.length) {
                        throw new IllegalStateException("COPY row with " + field + " fields, expected " + values.length);
                    }
                    sink.accept(k, h.end());
                    rows++;
                    field = 0;
                    h.begin();
                }
            }
        }
        if (start != data.length) {
            throw new IllegalStateException("COPY data does not end with a complete row");
        }
        return rows;
    }

    private final AsciiView view = new AsciiView();

    private void feedField(byte[] d, int from, int to, ValueKind kind, RowHash h) {
        if (to - from == 2 && d[from] == '\\' && d[from + 1] == 'N') {
            h.nullValue();
        } else {
            FieldBytes.feed(d, from, to, kind, h, view, true);
        }
    }

    private String field(byte[] d, int from, int to) {
        if (to - from == 2 && d[from] == '\\' && d[from + 1] == 'N') {
            return null;
        }
        return unescape(d, from, to);
    }

    /** A COPY text field with its backslash escapes undone, decoded from UTF-8. */
    static String unescape(byte[] d, int from, int to) {
        int backslash = -1;
        for (int i = from; i < to; i++) {
            if (d[i] == '\\') {
                backslash = i;
                break;
            }
        }
        if (backslash < 0) {
            return new String(d, from, to - from, StandardCharsets.UTF_8);
        }
        byte[] scratch = new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            byte b = d[i];
            if (b != '\\' || i + 1 == to) {
                scratch[n++] = b;
                continue;
            }
            byte c = d[++i];
            switch (c) {
                case 'b' -> scratch[n++] = 8;
                case 'f' -> scratch[n++] = 12;
                case 'n' -> scratch[n++] = 10;
                case 'r' -> scratch[n++] = 13;
                case 't' -> scratch[n++] = 9;
                case 'v' -> scratch[n++] = 11;
                case 'x' -> {
                    int v = 0;
                    int digits = 0;
                    while (digits < 2 && i + 1 < to && Character.digit(d[i + 1], 16) >= 0) {
                        v = v * 16 + Character.digit(d[++i], 16);
                        digits++;
                    }
                    scratch[n++] = digits == 0 ? (byte) 'x' : (byte) v;
                }
                default -> {
                    if (c >= '0' && c <= '7') {
                        int v = c - '0';
                        int digits = 1;
                        while (digits < 3 && i + 1 < to && d[i + 1] >= '0' && d[i + 1] <= '7') {
                            v = v * 8 + (d[++i] - '0');
                            digits++;
                        }
                        scratch[n++] = (byte) v;
                    } else {
                        scratch[n++] = c; // \\ and any other escaped character stand for themselves
                    }
                }
            }
        }
        return new String(scratch, 0, n, StandardCharsets.UTF_8);
    }
}
