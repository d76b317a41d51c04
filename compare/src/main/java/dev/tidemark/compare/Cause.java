package dev.tidemark.compare;

import com.fasterxml.jackson.annotation.JsonValue;

/** Why a target differs from the source for one key. */
public enum Cause {
    BACKDATED_OR_LATE_ROW("backdated or late row"),
    DELETE("delete"),
    UPDATE_NOT_TOUCHING_CURSOR("update that did not touch the cursor"),
    EQUAL_TIMESTAMP_BOUNDARY("equal-timestamp boundary"),
    LONG_TRANSACTION("long transaction"),
    /** No step of the scenario explains the difference: a defect in the mode (or in the scenario), never expected. */
    UNEXPLAINED("unexplained");

    private final String label;

    Cause(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }

    /** The cause a change of this intent leaves behind in a watermark target, or null when the watermark sees it. */
    static Cause ofWatermarkLoss(ScenarioStep.Intent intent) {
        return switch (intent) {
            case INSERT, UPDATE -> null;
            case BACKDATED_INSERT -> BACKDATED_OR_LATE_ROW;
            case UPDATE_NOT_TOUCHING_CURSOR -> UPDATE_NOT_TOUCHING_CURSOR;
            case DELETE -> DELETE;
            case EQUAL_TIMESTAMP_BOUNDARY -> EQUAL_TIMESTAMP_BOUNDARY;
            case LONG_TRANSACTION -> LONG_TRANSACTION;
        };
    }

    @Override
    public String toString() {
        return label;
    }
}
