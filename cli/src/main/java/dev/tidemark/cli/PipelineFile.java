package dev.tidemark.cli;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.PipelineConfigParser;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The required {@code -c/--config FILE} of the commands that act on one CDC pipeline ({@code run}, {@code capture},
 * {@code sink}, {@code status}, {@code drop}, {@code snapshot}); {@link #toString} is the file as the user named it,
 * for messages that tell the next command to type.
 */
final class PipelineFile {
    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "pipeline YAML file")
    Path path;

    /** The pipeline the file describes, its secrets taken from the environment; a bad file is a {@code ConfigException}. */
    PipelineConfig parse() {
        return PipelineConfigParser.parse(path);
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
