package dev.tidemark.cli.observability;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.connector.config.PipelineConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The last {@code tidemark reconcile --config FILE} of a pipeline, kept as {@code <stateDir>/<name>.last-reconcile.json}
 * so the sidecar's endpoint can show it. Reconcile is a separate, read-only command: it writes its summary next to
 * capture's offsets file (the pipeline's own local state) instead of into the target, which it never changes unless
 * asked to repair.
 */
public final class LastReconcile {
    private static final ObjectMapper JSON = new ObjectMapper();

    private LastReconcile() {
    }

    /** One table's differences. */
    public record Table(String table, long missing, long surplus, long changed) {
    }

    /** A finished reconcile: when, and each table's counts. */
    public record Result(String finishedAt, List<Table> tables) {
        public Result {
            tables = List.copyOf(tables);
        }
    }

    public static Path file(PipelineConfig config) {
        return config.stateDir().resolve(config.name() + ".last-reconcile.json");
    }

    /** Replaces the file atomically. */
    public static void write(PipelineConfig config, List<Table> tables) throws IOException {
        Path f = file(config);
        Files.createDirectories(f.getParent());
        Path tmp = f.resolveSibling(f.getFileName() + ".tmp");
        JSON.writeValue(tmp.toFile(), new Result(Instant.now().toString(), tables));
        Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Empty when no reconcile of this pipeline has finished yet. */
    public static Optional<Result> read(PipelineConfig config) throws IOException {
        Path f = file(config);
        return Files.exists(f) ? Optional.of(JSON.readValue(f.toFile(), Result.class)) : Optional.empty();
    }
}
