package dev.tidemark.event;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The order of {@link SourcePosition}s, stated per variant (see the rules on {@link SourcePosition}) and equal to
 * the unsigned byte order of their encodings, which is how the targets compare stored positions. A position is
 * read as a root (an {@link SourcePosition.Lsn}, {@link SourcePosition.Wal}, {@link SourcePosition.Watermark} or
 * {@link SourcePosition.Unknown}) wrapped in zero or more {@link SourcePosition.After}s. Pure and stateless.
 */
final class PositionOrder {
    private static final byte AFTER = (byte) PositionCodec.AFTER.charAt(0);

    private PositionOrder() {
    }

    static int compare(SourcePosition a, SourcePosition b) {
        int depthA = depth(a);
        int depthB = depth(b);
        SourcePosition rootA = root(a);
        SourcePosition rootB = root(b);
        int byKind = Integer.compare(kind(rootA), kind(rootB));
        if (byKind != 0) {
            return byKind;
        }
        if (rootA instanceof SourcePosition.Watermark wa) {
            return watermarks(wa.encode(), depthA, rootB.encode(), depthB);
        }
        if (rootA instanceof SourcePosition.Unknown) {
            return 0; // nothing wraps Unknown
        }
        return wal(rootA, depthA, rootB, depthB);
    }

    /** Unknown, then watermark positions, then WAL positions ({@code ""} &lt; {@code "cursor:"} &lt; {@code "lsn:"}). */
    private static int kind(SourcePosition root) {
        if (root instanceof SourcePosition.Unknown) {
            return 0;
        }
        return root instanceof SourcePosition.Watermark ? 1 : 2;
    }

    /**
     * WAL positions: by ordering LSN (unsigned), then by tier: a version 1 {@code Lsn} (0), the version 2 {@code Wal}s
     * of that LSN (1: by phase, change LSN, then how many {@code After}s), positions after a version 1 {@code Lsn}
     * (2: by how many {@code After}s). Tier 2 comes last because such a position is just after the {@code Lsn} and the
     * version 2 positions of its LSN extend the {@code Lsn}.
     */
    private static int wal(SourcePosition a, int depthA, SourcePosition b, int depthB) {
        int c = Long.compareUnsigned(order(a), order(b));
        if (c != 0) {
            return c;
        }
        c = Integer.compare(tier(a, depthA), tier(b, depthB));
        if (c != 0) {
            return c;
        }
        if (a instanceof SourcePosition.Wal wa && b instanceof SourcePosition.Wal wb) {
            c = wa.phase().compareTo(wb.phase());
            if (c != 0) {
                return c;
            }
            c = Long.compareUnsigned(wa.change(), wb.change());
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(depthA, depthB);
    }

    private static long order(SourcePosition root) {
        return root instanceof SourcePosition.Wal w ? w.order() : ((SourcePosition.Lsn) root).lsn();
    }

    private static int tier(SourcePosition root, int depth) {
        if (root instanceof SourcePosition.Wal) {
            return 1;
        }
        return depth == 0 ? 0 : 2;
    }

    /**
     * Watermark positions: the root's encoding as UTF-8 bytes followed by one {@code ~} per {@code After}, unsigned
     * (version 1 before version 2; version 2 by its fixed-width run, then by value).
     */
    private static int watermarks(String a, int depthA, String b, int depthB) {
        return Arrays.compareUnsigned(bytes(a, depthA), bytes(b, depthB));
    }

    private static byte[] bytes(String value, int depth) {
        byte[] text = value.getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(text, text.length + depth);
        Arrays.fill(out, text.length, out.length, AFTER);
        return out;
    }

    private static int depth(SourcePosition p) {
        int depth = 0;
        for (SourcePosition q = p; q instanceof SourcePosition.After after; q = after.base()) {
            depth++;
        }
        return depth;
    }

    private static SourcePosition root(SourcePosition p) {
        SourcePosition q = p;
        while (q instanceof SourcePosition.After after) {
            q = after.base();
        }
        return q;
    }
}
