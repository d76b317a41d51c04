package dev.tidemark.connector.config;

/**
 * The optional HTTP endpoint of {@code run}, {@code capture} and {@code sink} ({@code /health}, {@code /metrics},
 * {@code /}). Absent from the pipeline file: {@link #OFF}.
 *
 * @param host the address to listen on; {@value #DEFAULT_HOST} unless set (only this machine: set {@code 0.0.0.0} in
 *             a container whose port is published)
 * @param port the TCP port, 1–65535; 0 only in {@link #OFF}
 */
public record ObservabilityConfig(String host, int port) {
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** No endpoint. */
    public static final ObservabilityConfig OFF = new ObservabilityConfig(DEFAULT_HOST, 0);

    public boolean enabled() {
        return port > 0;
    }
}
