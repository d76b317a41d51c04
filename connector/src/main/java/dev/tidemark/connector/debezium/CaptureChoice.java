package dev.tidemark.connector.debezium;

/** What the user explicitly asked capture to do when its slot and its offsets disagree (command-line flags). */
public enum CaptureChoice {
    /** Nothing asked: resume when slot and offsets agree, start fresh when neither exists, refuse otherwise. */
    NONE,
    /**
     * {@code --resnapshot}: drop the slot (if any), set the offsets aside, create a new slot and take a new snapshot.
     * Target rows the new snapshot no longer holds must then be removed ({@code reconcile --repair --apply}).
     */
    RESNAPSHOT,
    /**
     * {@code --accept-gap}: stream from the slot's current position without a snapshot; the changes between the
     * stored offsets and the slot are not captured.
     */
    ACCEPT_GAP
}
