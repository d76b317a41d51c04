package dev.tidemark.connector.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The steps every YAML configuration file goes through: read the file, parse it as YAML into a mapping, build the
 * configuration with a fresh {@link ConfigReader}, and throw every problem the build collected at once, as one
 * {@link ConfigException} naming the file. Stateless.
 */
public final class ConfigFile {
    private ConfigFile() {
    }

    /** The text of {@code file}; one that cannot be read is a {@link ConfigException} naming it. */
    public static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new ConfigException(file.toString(), List.of("cannot read file: " + e.getMessage()));
        }
    }

    /**
     * Builds the configuration in {@code yaml}, a mapping with the keys {@code top}.
     *
     * @param sourceName the file as the user named it, for the exception's message
     * @param build      reads the mapping's values through the reader, which collects every problem
     * @throws ConfigException when the text is not YAML, not a mapping, or the build found problems
     */
    public static <T> T parse(String yaml, String sourceName, Set<String> top, Function<String, String> env,
                              BiFunction<ConfigReader, JsonNode, T> build) {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(yaml);
        } catch (IOException e) {
            throw new ConfigException(sourceName, List.of(ConfigReader.yamlError(e)));
        }
        if (root == null || !root.isObject()) {
            throw new ConfigException(sourceName, List.of("expected a mapping with keys " + top));
        }
        ConfigReader reader = new ConfigReader(env);
        T built = build.apply(reader, root);
        if (!reader.problems().isEmpty()) {
            throw new ConfigException(sourceName, reader.problems());
        }
        return built;
    }
}
