package dev.tidemark.connector.watermark;

import java.util.Objects;

/**
 * What one run of one table will do, as decided by {@link WindowPlanner} before any row is read: either copy a
 * window ({@link Copy}) or record a run that reads nothing ({@link Skip}).
 */
sealed interface WindowPlan {

    /** The kind of run, reported and recorded. */
    RunKind kind();

    /**
     * Copy {@code window} in key-paged chunks.
     *
     * @param window     the cursor range to read
     * @param previous   the stored watermark the run starts from (kept while chunks are in progress), null on a first
     *                   load and for a tumbling window
     * @param target     the watermark the last chunk's control write stores; null for a tumbling window (which writes
     *                   no control row at all)
     * @param resumeKey  the last key committed by a stopped run of this window (JSON), null to start at the first key
     * @param rowsBefore rows that stopped run already committed
     */
    record Copy(RunKind kind, Window window, Watermark previous, Watermark target, String resumeKey, long rowsBefore)
            implements WindowPlan {
        public Copy {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(window, "window");
            if ((target == null) != (kind == RunKind.WINDOW)) {
                throw new IllegalArgumentException("only a tumbling window has no target watermark: " + kind);
            }
        }

        /** A tumbling window: no control write; rows below a watermark are not lateness. */
        boolean tumbling() {
            return target == null;
        }

        /** First loads and tumbling windows count the window first and show a progress bar when it is large. */
        boolean showsProgress() {
            return previous == null;
        }

        /** The watermark stored after the run: the target once the window is complete, else the previous one. */
        Watermark watermarkAfter(boolean complete) {
            return complete ? target : previous;
        }
    }

    /**
     * Read nothing: an empty table on a first run ({@code window} null, {@code watermark} null), or nothing above
     * the stored watermark ({@code watermark} is the stored one, kept).
     */
    record Skip(RunKind kind, Window window, Watermark watermark) implements WindowPlan {
        public Skip {
            Objects.requireNonNull(kind, "kind");
        }
    }
}
