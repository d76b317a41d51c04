package dev.tidemark.connector.config;

import java.util.List;

/** A configuration was rejected; the message lists every problem found, one per line, each naming its key. */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final List<String> problems;

    public ConfigException(String source, List<String> problems) {
        super("invalid configuration " + source + ":\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
