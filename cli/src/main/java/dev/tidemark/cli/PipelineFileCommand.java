package dev.tidemark.cli;

import dev.tidemark.connector.config.PipelineConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/**
 * A command that acts on the one CDC pipeline its required {@code --config} file describes ({@link PipelineFile}): the
 * file is parsed first, so a bad file fails before anything is touched; {@link #call(PipelineConfig)} returns the exit code.
 */
abstract class PipelineFileCommand implements Callable<Integer> {
    @Mixin
    PipelineFile config = new PipelineFile();

    @Override
    public final Integer call() throws Exception {
        return call(config.parse());
    }

    abstract int call(PipelineConfig cfg) throws Exception;
}
