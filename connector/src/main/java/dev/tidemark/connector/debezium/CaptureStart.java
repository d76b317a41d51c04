package dev.tidemark.connector.debezium;

/**
 * How capture starts, decided by {@link CaptureStartDecision} from the slot, the stored offsets and the user's
 * explicit choice before the engine runs.
 */
public sealed interface CaptureStart {
    /** Neither slot nor offsets: create the slot, take the initial snapshot, mark the first position. */
    record Fresh() implements CaptureStart {
    }

    /** Slot and offsets agree: Debezium resumes from the stored offsets. */
    record Resume(Lsn storedPosition) implements CaptureStart {
    }

    /** {@code --resnapshot}: drop the slot if it exists, set the offsets aside if any, then start as {@link Fresh}. */
    record Resnapshot(boolean dropSlot, boolean discardOffsets) implements CaptureStart {
    }

    /**
     * {@code --accept-gap}: stream without a snapshot, from the slot's position (a new slot if none exists). The
     * offsets are set aside; where they named a position and the slot has one, offsets at the slot's position take
     * their place ({@link AcceptedGap}). {@code discardOffsets}: the old offsets were unusable (missing, damaged,
     * from an unfinished snapshot, or the slot is gone); otherwise they were behind the slot. The gap is recorded.
     */
    record AcceptGap(boolean discardOffsets) implements CaptureStart {
    }

    /** Slot and offsets disagree and the user chose nothing: do not start. {@code message} is one line. */
    record Refuse(String message) implements CaptureStart {
    }
}
