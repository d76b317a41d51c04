package dev.tidemark.compare;

import java.util.Objects;

/**
 * One key on which a target differs from the source, with its cause.
 *
 * @param key    the primary key as text
 * @param kind   missing from the target, surplus in it, or changed
 * @param cause  why, from the scenario's intents ({@link Cause#UNEXPLAINED} when none explains it)
 * @param detail the step that explains it (or what was expected instead)
 */
public record Difference(String key, Kind kind, Cause cause, String detail) {
    public Difference {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(cause, "cause");
    }

    public enum Kind {
        MISSING, SURPLUS, CHANGED;

        @com.fasterxml.jackson.annotation.JsonValue
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
