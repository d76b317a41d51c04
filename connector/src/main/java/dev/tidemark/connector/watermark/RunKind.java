package dev.tidemark.connector.watermark;

/**
 * What kind of run a {@link WindowPlanner} planned for one table. Each kind has a fixed lower-case label: the text
 * {@link RunResult#mode()} reports and (through {@link #historyLabel()}) the {@code mode} column of {@link RunHistory}.
 */
public enum RunKind {
    /** No watermark stored yet: everything up to the upper bound (or nothing, for an empty table). */
    INITIAL("initial"),
    /** Finishing a window a stop left unfinished, after the last committed key. */
    RESUMED("resumed"),
    /** Nothing above the stored watermark and no overlap to re-read: no window read at all. */
    UNCHANGED("unchanged"),
    /** From the stored watermark (moved down by the overlap) to the new upper bound. */
    INCREMENTAL("incremental"),
    /** A tumbling window given explicitly; the control table is neither read nor written. */
    WINDOW("window");

    private final String label;

    RunKind(String label) {
        this.label = label;
    }

    /** The label reported in run results and summaries: {@code initial}, {@code resumed}, … */
    public String label() {
        return label;
    }

    /**
     * The label the run history stores: an unchanged run is an incremental run that copied nothing, so the
     * history's anomaly check (which looks at incremental runs) sees its zero.
     */
    public String historyLabel() {
        return this == UNCHANGED ? INCREMENTAL.label : label;
    }

    /** Whether the run is compared with recent incremental runs for anomalies (sudden zeros, spikes). */
    public boolean comparedWithHistory() {
        return this == INCREMENTAL || this == UNCHANGED;
    }
}
