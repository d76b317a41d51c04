package dev.tidemark.cli.observability;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The version {@code tidemark_build_info} reports: {@code build.properties} beside this class, filtered by Maven with
 * the project's version, so the jar and {@code target/classes} report the same. {@value #UNKNOWN} when the resource is
 * missing or was not filtered (classes compiled outside Maven).
 */
final class BuildInfo {
    static final String UNKNOWN = "unknown";

    private BuildInfo() {
    }

    static String version() {
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            if (in == null) {
                return UNKNOWN;
            }
            Properties p = new Properties();
            p.load(in);
            return parse(p.getProperty("version"));
        } catch (IOException e) {
            return UNKNOWN;
        }
    }

    /** {@code value}, or {@value #UNKNOWN} when absent, blank or still a {@code ${…}} placeholder. */
    static String parse(String value) {
        return value == null || value.isBlank() || value.contains("${") ? UNKNOWN : value.trim();
    }
}
