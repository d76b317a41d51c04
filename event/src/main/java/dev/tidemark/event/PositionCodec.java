package dev.tidemark.event;

/**
 * The text form of {@link SourcePosition}s: writes and reads the grammar documented there. Strict: only canonical
 * text is read (lower-case, fixed-width hex; known versions), so that what is read encodes back to the same bytes
 * and keeps its place in the order the targets compare with. Pure and stateless.
 */
final class PositionCodec {
    /** Prefix of WAL positions (versions 1 and 2). */
    static final String WAL = "lsn:";
    /** Prefix of watermark positions, version 1 (value only). */
    static final String WATERMARK = "cursor:";
    /** Prefix of watermark positions, version 2 (run, then value); {@code '@'} sorts after {@code ':'}. */
    static final String WATERMARK_RUN = "cursor@";
    /** Suffix of a position just after another ({@link SourcePosition.After}). */
    static final String AFTER = "~";
    /** Marker of version 2, right after the ordering LSN. */
    static final String V2 = ":v2:";

    private static final int HEX = 16;
    private static final int V1_LENGTH = WAL.length() + HEX;
    private static final int V2_LENGTH = V1_LENGTH + V2.length() + 2 + HEX;
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private PositionCodec() {
    }

    /** {@code lsn:<16 hex>}. */
    static String lsn(long lsn) {
        char[] out = new char[V1_LENGTH];
        WAL.getChars(0, WAL.length(), out, 0);
        hex(lsn, out, WAL.length());
        return new String(out);
    }

    /** {@code lsn:<16 hex order>:v2:<phase digit>:<16 hex change>}. */
    static String wal(long order, SourcePosition.Phase phase, long change) {
        char[] out = new char[V2_LENGTH];
        WAL.getChars(0, WAL.length(), out, 0);
        hex(order, out, WAL.length());
        V2.getChars(0, V2.length(), out, V1_LENGTH);
        int at = V1_LENGTH + V2.length();
        out[at] = phase.digit;
        out[at + 1] = ':';
        hex(change, out, at + 2);
        return new String(out);
    }

    /** {@code cursor@<16 hex run>:<value>}. */
    static String watermark(long run, String value) {
        char[] hex = new char[HEX];
        hex(run, hex, 0);
        return WATERMARK_RUN + new String(hex) + ":" + value;
    }

    static SourcePosition decode(String encoded) {
        if (encoded == null) {
            throw new IllegalArgumentException("not a source position: null");
        }
        int end = encoded.length();
        while (end > 0 && encoded.charAt(end - 1) == AFTER.charAt(0)) {
            end--;
        }
        if (end == 0) {
            if (encoded.isEmpty()) {
                return new SourcePosition.Unknown();
            }
            throw malformed(encoded, "a position before the '~' of a repair position");
        }
        SourcePosition position = base(encoded, encoded.substring(0, end));
        for (int i = end; i < encoded.length(); i++) {
            position = new SourcePosition.After(position);
        }
        return position;
    }

    private static SourcePosition base(String encoded, String base) {
        if (base.startsWith(WATERMARK)) {
            return new SourcePosition.Watermark(base.substring(WATERMARK.length()));
        }
        if (base.startsWith(WATERMARK_RUN)) {
            int at = WATERMARK_RUN.length();
            long run = hex(encoded, base, at);
            if (base.length() <= at + HEX || base.charAt(at + HEX) != ':' || run < 0) {
                throw malformed(encoded, "'" + WATERMARK_RUN + "<16 hex run>:<value>'");
            }
            return new SourcePosition.Watermark(base.substring(at + HEX + 1), run);
        }
        if (!base.startsWith(WAL)) {
            throw malformed(encoded, "'" + WAL + "…' or '" + WATERMARK + "…' or '" + WATERMARK_RUN + "…'");
        }
        long order = hex(encoded, base, WAL.length());
        if (base.length() == V1_LENGTH) {
            return new SourcePosition.Lsn(order);
        }
        if (!base.startsWith(":v", V1_LENGTH)) {
            throw malformed(encoded, "'" + V2 + "' or the end after the 16 hex digits of the LSN");
        }
        if (!base.startsWith(V2, V1_LENGTH)) {
            int colon = base.indexOf(':', V1_LENGTH + 2);
            String version = base.substring(V1_LENGTH + 2, colon < 0 ? base.length() : colon);
            if (version.isEmpty() || !version.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw malformed(encoded, "'" + V2 + "' or the end after the 16 hex digits of the LSN");
            }
            throw new IllegalArgumentException("source position '" + encoded + "' has encoding version '" + version
                    + "', which this Tidemark does not know (it reads versions 1 and 2): was it written by a newer one?");
        }
        int at = V1_LENGTH + V2.length();
        if (base.length() != V2_LENGTH || base.charAt(at + 1) != ':') {
            throw malformed(encoded, "'lsn:<16 hex>:v2:<phase>:<16 hex>'");
        }
        return new SourcePosition.Wal(order, phase(encoded, base.charAt(at)), hex(encoded, base, at + 2));
    }

    private static SourcePosition.Phase phase(String encoded, char digit) {
        for (SourcePosition.Phase p : SourcePosition.Phase.values()) {
            if (p.digit == digit) {
                return p;
            }
        }
        throw malformed(encoded, "a phase digit 0, 1 or 2");
    }

    private static void hex(long value, char[] out, int at) {
        for (int i = HEX - 1; i >= 0; i--) {
            out[at + i] = DIGITS[(int) (value & 0xf)];
            value >>>= 4;
        }
    }

    private static long hex(String encoded, String text, int at) {
        if (text.length() < at + HEX) {
            throw malformed(encoded, "16 lower-case hex digits at offset " + at);
        }
        long value = 0;
        for (int i = at; i < at + HEX; i++) {
            char c = text.charAt(i);
            int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (digit < 0) {
                throw malformed(encoded, "16 lower-case hex digits at offset " + at);
            }
            value = value << 4 | digit;
        }
        return value;
    }

    private static IllegalArgumentException malformed(String encoded, String expected) {
        return new IllegalArgumentException("not a source position: '" + encoded + "' (expected " + expected + ")");
    }
}
