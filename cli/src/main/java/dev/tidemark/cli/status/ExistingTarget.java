package dev.tidemark.cli.status;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.jdbc.JdbcEndpoints;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;

/**
 * The pipeline's target opened for reading only, for the commands and endpoints that must never create it: a SQLite
 * file that does not exist is reported by {@link #absentFile} and must not be opened (the driver would create it).
 */
public final class ExistingTarget {
    private ExistingTarget() {
    }

    /** The target's SQLite file when it does not exist yet; empty for other engines and for an existing file. */
    public static Optional<Path> absentFile(PipelineConfig config) {
        return JdbcEndpoints.sqliteFile(config.target().jdbcUrl()).filter(f -> !Files.exists(f));
    }

    /** A connection with the target's user and password; the caller checked {@link #absentFile} first and closes it. */
    public static Connection open(PipelineConfig config) throws SQLException {
        Properties p = new Properties();
        if (config.target().user() != null) {
            p.setProperty("user", config.target().user());
        }
        if (!config.target().password().isEmpty()) {
            p.setProperty("password", config.target().password().reveal());
        }
        return DriverManager.getConnection(config.target().jdbcUrl(), p);
    }
}
