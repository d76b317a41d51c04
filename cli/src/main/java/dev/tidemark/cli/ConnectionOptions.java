package dev.tidemark.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Where {@code reconcile} and {@code watermark} find their databases: a pipeline file ({@code --config}) or the inline
 * source and target JDBC URL and user, never both ({@link #notWithConfig}). Passwords never come from the command line:
 * {@link #sourcePassword} and {@link #targetPassword} read TIDEMARK_SOURCE_PASSWORD and TIDEMARK_TARGET_PASSWORD. A
 * command whose resource bundle has a {@code config} or {@code target} entry shows that as the option's help.
 */
final class ConnectionOptions {
    @Option(names = {"-c", "--config"}, paramLabel = "FILE", descriptionKey = "config",
            description = "CDC pipeline YAML: its source, tables and target (instead of the options below)")
    Path config;

    @Option(names = "--source", paramLabel = "JDBC_URL", description = "source database")
    String source;

    @Option(names = "--source-user", paramLabel = "USER")
    String sourceUser;

    @Option(names = "--target", paramLabel = "JDBC_URL", descriptionKey = "target", description = "target database")
    String target;

    @Option(names = "--target-user", paramLabel = "USER")
    String targetUser;

    static String sourcePassword() {
        return System.getenv("TIDEMARK_SOURCE_PASSWORD");
    }

    static String targetPassword() {
        return System.getenv("TIDEMARK_TARGET_PASSWORD");
    }

    /** Adds the line a missing {@code --source} gets to problems. */
    void requireSource(List<String> problems) {
        if (source == null) {
            problems.add("Missing --source JDBC_URL (or give --config FILE)");
        }
    }

    /**
     * One line for each option given that a configuration file replaces; {@code nameAndValue} pairs an option's name
     * with its value (null when not given), in the order the lines are wanted.
     */
    static List<String> notWithConfig(Object[]... nameAndValue) {
        List<String> lines = new ArrayList<>();
        for (Object[] o : nameAndValue) {
            if (o[1] != null) {
                lines.add(o[0] + " cannot be combined with --config (the file says it)");
            }
        }
        return lines;
    }
}
