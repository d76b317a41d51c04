package dev.tidemark.connector.watermark;

/** How a run ended; the label is what {@link RunResult#status()} and the run history's {@code status} column hold. */
public enum RunStatus {
    /** The whole window was copied (or there was nothing to copy). */
    COMPLETE("complete"),
    /** A stop request between chunks; the progress up to the last committed chunk is stored. */
    STOPPED("stopped");

    private final String label;

    RunStatus(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
