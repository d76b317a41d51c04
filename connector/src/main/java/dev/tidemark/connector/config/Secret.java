package dev.tidemark.connector.config;

/** A password or token: {@link #toString()} prints {@code [hidden]} so it never reaches a log line. */
public final class Secret {
    private static final Secret EMPTY = new Secret("");
    private final String value;

    private Secret(String value) {
        this.value = value;
    }

    public static Secret of(String value) {
        return value == null || value.isEmpty() ? EMPTY : new Secret(value);
    }

    public static Secret empty() {
        return EMPTY;
    }

    /** The secret itself, for handing to a driver. Never log the result. */
    public String reveal() {
        return value;
    }

    public boolean isEmpty() {
        return value.isEmpty();
    }

    @Override
    public String toString() {
        return "[hidden]";
    }
}
