package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;

import java.math.BigDecimal;
import java.util.List;

/**
 * Orders keys given as canonical text the way {@link dev.tidemark.jdbc.Database#orderTerm} makes every database sort them: integers,
 * decimals and floats by value, everything else (text, date-times in their fixed-width canonical form, hex bytes)
 * by code point, which is the byte order of UTF-8 and of PostgreSQL's {@code "C"} collation.
 */
final class KeyOrder {
    private final ValueKind[] kinds;

    KeyOrder(List<ValueKind> kinds) {
        this.kinds = kinds.toArray(ValueKind[]::new);
    }

    /** A comparable form of one key: parsed numbers, text as is. */
    Object[] sortKey(String[] key) {
        Object[] out = new Object[key.length];
        for (int i = 0; i < key.length; i++) {
            String v = key[i];
            out[i] = v == null ? null : switch (kinds[i]) {
                case INTEGER -> Long.parseLong(v);
                case DECIMAL -> decimal(v);
                case FLOAT -> Double.parseDouble(v);
                default -> v;
            };
        }
        return out;
    }

    private static Object decimal(String v) {
        try {
            return new BigDecimal(v);
        } catch (NumberFormatException e) {
            return v; // NaN and friends sort as text
        }
    }

    int compare(Object[] a, Object[] b) {
        for (int i = 0; i < a.length; i++) {
            int c = compareValue(a[i], b[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareValue(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        if (a instanceof String s && b instanceof String t) {
            return codePoints(s, t);
        }
        if (a.getClass() != b.getClass()) {
            return a.getClass().getName().compareTo(b.getClass().getName());
        }
        return ((Comparable) a).compareTo(b);
    }

    /** Code-point order (String.compareTo orders UTF-16 units, which differs above U+FFFF). */
    static int codePoints(String s, String t) {
        int n = Math.min(s.length(), t.length());
        for (int i = 0; i < n; i++) {
            char a = s.charAt(i);
            char b = t.charAt(i);
            if (a != b) {
                boolean sa = Character.isSurrogate(a);
                boolean sb = Character.isSurrogate(b);
                if (sa != sb) {
                    return sa ? 1 : -1; // a surrogate pair encodes a code point above every BMP character
                }
                return a - b;
            }
        }
        return s.length() - t.length();
    }
}
