package dev.tidemark.connector.reconcile;

/**
 * A 64-bit hash of one row's canonical values ({@link CanonicalValues#ofText}), and the order-independent checksum
 * of a set of rows: their count and the sum of their hashes (mod 2^64). A sum rather than an XOR, so that two equal
 * rows do not cancel out.
 *
 * <p>A row is hashed as a sequence of tokens: each value's UTF-16 code units followed by an end-of-value token, SQL
 * NULL as a token of its own; both tokens lie outside the range of code units, so {@code ("ab", "c")},
 * {@code ("a", "bc")}, {@code ("", NULL)} and {@code (NULL, "")} all differ. FNV-1a over the tokens, then
 * MurmurHash3's 64-bit finaliser so that sums of hashes are well mixed. One changed value always changes the row's
 * hash (each FNV step is a bijection of the state); different rows collide with probability about 2^-64. Not a
 * cryptographic hash: it guards against accidents, not adversaries.
 *
 * <p>Instances are mutable and reused row after row by one thread: {@link #begin}, values, {@link #end}.
 */
final class RowHash {
    private static final long OFFSET = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;
    private static final int END_OF_VALUE = 0x10000;
    private static final int NULL = 0x10001;

    private long h;

    RowHash begin() {
        h = OFFSET;
        return this;
    }

    void ch(char c) {
        h = (h ^ c) * PRIME;
    }

    void chars(CharSequence s, int from, int to) {
        long x = h;
        for (int i = from; i < to; i++) {
            x = (x ^ s.charAt(i)) * PRIME;
        }
        h = x;
    }

    void chars(String s) {
        long x = h;
        for (int i = 0, n = s.length(); i < n; i++) {
            x = (x ^ s.charAt(i)) * PRIME;
        }
        h = x;
    }

    /** Ends one value. */
    void endValue() {
        h = (h ^ END_OF_VALUE) * PRIME;
    }

    void nullValue() {
        h = (h ^ NULL) * PRIME;
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
        return fmix(h);
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
