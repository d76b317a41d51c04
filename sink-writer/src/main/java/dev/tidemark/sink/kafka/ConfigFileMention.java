package dev.tidemark.sink.kafka;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts the pipeline file the user named into the commands a sink's message suggests (pure). The sink's messages are
 * written where the file is not known and say {@code --config F} or {@code --config <pipeline file>}; the command
 * that started the sink knows it and fills it in, so the suggested command can be run as it is. A path holding a space
 * is quoted.
 */
public final class ConfigFileMention {
    private static final Pattern PLACEHOLDER = Pattern.compile("--config (?:F|FILE|<pipeline file>)(?=[ `)]|$)");

    private ConfigFileMention() {
    }

    /** {@code message} with every placeholder for the pipeline file replaced by {@code configFile}; null: unchanged. */
    public static String fill(String message, String configFile) {
        if (message == null || configFile == null || configFile.isEmpty()) {
            return message;
        }
        String shown = configFile.contains(" ") ? "'" + configFile + "'" : configFile;
        return PLACEHOLDER.matcher(message).replaceAll(Matcher.quoteReplacement("--config " + shown));
    }
}
