package dev.tidemark.reconcile;

/**
 * A 64-bit hash of one row's canonical values ({@link CanonicalValues#ofText}), and the order-independent checksum
 * of a set of rows: their count and the sum of their hashes (mod 2^64). A sum rather than an XOR, so that two equal
 * rows do not cancel out.
 *
 * <p>A row is hashed as a sequence of units: each value's UTF-16 code units followed by an end-of-value unit, SQL
 * NULL as a unit of its own; both lie outside the range of code units, so {@code ("ab", "c")}, {@code ("a", "bc")},
 * {@code ("", NULL)} and {@code (NULL, "")} all differ. Units (17 bits each) are packed three to a 64-bit word, and
 * words are hashed FNV-1a style ({@code h = (h ^ word) * prime}); a last, partial word is filled with a unit value
 * that never occurs. MurmurHash3's 64-bit finaliser mixes the result so that sums of hashes are well spread. One
 * changed value always changes the row's hash (each step is a bijection of the state); different rows collide with
 * probability about 2^-64. Not a cryptographic hash: it guards against accidents, not adversaries.
 *
 * <p>Instances are mutable and reused row after row by one thread: {@link #begin}, values, {@link #end}.
 */
final class RowHash {
    private static final long OFFSET = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;
    private static final int END_OF_VALUE = 0x10000;
    private static final int NULL = 0x10001;
    private static final long FILL = 0x1FFFF;

    private long h;
    private long acc;
    private int n;

    RowHash begin() {
        h = OFFSET;
        acc = 0;
        n = 0;
        return this;
    }

    private void unit(int u) {
        acc |= (long) u << (17 * n);
        if (++n == 3) {
            h = (h ^ acc) * PRIME;
            acc = 0;
            n = 0;
        }
    }

    void ch(char c) {
        unit(c);
    }

    void chars(CharSequence s, int from, int to) {
        int i = from;
        while (n != 0 && i < to) {
            unit(s.charAt(i++));
        }
        long x = h;
        for (; i + 3 <= to; i += 3) {
            x = (x ^ (s.charAt(i) | (long) s.charAt(i + 1) << 17 | (long) s.charAt(i + 2) << 34)) * PRIME;
        }
        h = x;
        while (i < to) {
            unit(s.charAt(i++));
        }
    }

    void chars(String s) {
        chars(s, 0, s.length());
    }

    /**
     * Feeds {@code d[from, to)} as text if it is plain ASCII (no byte above 0x7F, and no backslash when
     * {@code noBackslash}), as {@link #chars} would; returns false, having fed nothing, otherwise.
     */
    boolean asciiBytes(byte[] d, int from, int to, boolean noBackslash) {
        long savedH = h;
        long savedAcc = acc;
        int savedN = n;
        int i = from;
        while (n != 0 && i < to) {
            byte b = d[i++];
            if (b < 0 || noBackslash && b == '\\') {
                return restore(savedH, savedAcc, savedN);
            }
            unit(b);
        }
        long x = h;
        for (; i + 3 <= to; i += 3) {
            byte b0 = d[i];
            byte b1 = d[i + 1];
            byte b2 = d[i + 2];
            if ((b0 | b1 | b2) < 0 || noBackslash && (b0 == '\\' || b1 == '\\' || b2 == '\\')) {
                return restore(savedH, savedAcc, savedN);
            }
            x = (x ^ (b0 | (long) b1 << 17 | (long) b2 << 34)) * PRIME;
        }
        h = x;
        while (i < to) {
            byte b = d[i++];
            if (b < 0 || noBackslash && b == '\\') {
                return restore(savedH, savedAcc, savedN);
            }
            unit(b);
        }
        return true;
    }

    /** Puts the state back as it was before a value that could not be fed; returns false. */
    private boolean restore(long savedH, long savedAcc, int savedN) {
        h = savedH;
        acc = savedAcc;
        n = savedN;
        return false;
    }

    /** Ends one value. */
    void endValue() {
        unit(END_OF_VALUE);
    }

    void nullValue() {
        unit(NULL);
    }

    /** One whole canonical value (null for SQL NULL). */
    void value(String canonical) {
        if (canonical == null) {
            nullValue();
        } else {
            chars(canonical);
            endValue();
        }
    }

    long end() {
        long x = h;
        if (n > 0) {
            x = (x ^ (acc | FILL << (17 * n))) * PRIME;
        }
        return fmix(x);
    }

    /** The hash of a row of canonical values. */
    static long of(String[] values) {
        RowHash r = new RowHash().begin();
        for (String v : values) {
            r.value(v);
        }
        return r.end();
    }

    static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
