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

    /** No position was given (e.g. a tombstone, which carries only a key). */
    record Unknown() implements SourcePosition {
        @Override
        public String render() {
            return "";
        }
    }
}
