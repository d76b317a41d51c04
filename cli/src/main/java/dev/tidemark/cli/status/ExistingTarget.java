package dev.tidemark.cli.status;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.jdbc.JdbcEndpoints;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The pipeline's target as the commands and endpoints that must never create it see it: a SQLite file that does not
 * exist is reported by {@link #absentFile} and must not be opened (the driver would create it); any other target is
 * opened with {@link dev.tidemark.connector.config.TargetAccess#open}.
 */
public final class ExistingTarget {
    private ExistingTarget() {
    }

    /** The target's SQLite file when it does not exist yet; empty for other engines and for an existing file. */
    public static Optional<Path> absentFile(PipelineConfig config) {
        return JdbcEndpoints.sqliteFile(config.target().jdbcUrl()).filter(f -> !Files.exists(f));
    }
}
