package dev.tidemark.connector.reconcile;

/**
 * A 64-bit hash of one row's canonical values ({@link CanonicalValues#ofText}), and the order-independent checksum
 * of a set of rows: their count and the sum of their hashes (mod 2^64). A sum rather than an XOR, so that two equal
 * rows do not cancel out.
 *
 * <p>Each value is hashed as its length followed by its UTF-16 code units, and SQL NULL as a length no text can have,
 * so {@code ("ab", "c")}, {@code ("a", "bc")}, {@code ("", NULL)} and {@code (NULL, "")} all differ. FNV-1a over the
 * units, then MurmurHash3's 64-bit finaliser so that sums of hashes are well mixed. One changed value always changes
 * a row's hash (each FNV step is a bijection); different rows collide with probability about 2^-64. Not a
 * cryptographic hash: it guards against accidents, not adversaries.
 */
final class RowHash {
    private static final long OFFSET = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;

    private RowHash() {
    }

    static long of(String[] values) {
        long h = OFFSET;
        for (String v : values) {
            if (v == null) {
                h = (h ^ 0xFFFF) * PRIME;
                h = (h ^ 0xFFFF) * PRIME;
                continue;
            }
            int n = v.length();
            h = (h ^ (n & 0xFFFF)) * PRIME;
            h = (h ^ (n >>> 16)) * PRIME;
            for (int i = 0; i < n; i++) {
                h = (h ^ v.charAt(i)) * PRIME;
            }
        }
        return fmix(h);
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
