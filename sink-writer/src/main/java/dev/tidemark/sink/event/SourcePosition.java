package dev.tidemark.sink.event;

/**
 * Where in the source an event comes from. Positions of one kind are totally ordered; the sink uses them to skip
 * events older than what a target row already holds.
 */
public sealed interface SourcePosition {

    /** A comparable rendering stored in the target's position column. */
    String render();

    /** A PostgreSQL log sequence number of the change. */
    record Lsn(long lsn) implements SourcePosition {
        @Override
        public String render() {
            String hex = Long.toHexString(lsn);
            return "lsn:" + "0".repeat(16 - hex.length()) + hex;
        }
    }

    /** A watermark cursor value (rendered so that string order equals cursor order). */
    record Cursor(String value) implements SourcePosition {
        @Override
        public String render() {
            return "cursor:" + value;
        }
    }

    /**
     * Just after a position a target row already holds ({@code stored}, as rendered): renders as {@code stored + "~"},
     * which sorts after {@code stored} and before every strictly later position of the same kind (renderings are
     * fixed-width, and {@code ~} sorts after every character they use). Reconcile repairs use it so that a repair wins
     * over the stale row it replaces and over a replay of the event that wrote that row, while any later source event
     * still wins over the repair.
     */
    record After(String stored) implements SourcePosition {
        public After {
            if (stored == null || stored.isEmpty()) {
                throw new IllegalArgumentException("a position after nothing: use Unknown");
            }
        }

        @Override
        public String render() {
            return stored + "~";
        }
    }

    /** No position was given (e.g. a tombstone, which carries only a key). */
    record Unknown() implements SourcePosition {
        @Override
        public String render() {
            return "";
        }
    }
}
