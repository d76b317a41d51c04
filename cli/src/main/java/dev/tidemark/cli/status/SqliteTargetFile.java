package dev.tidemark.cli.status;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Pure: the database file a {@code jdbc:sqlite:} URL names ({@code jdbc:sqlite:dir/t.db},
 * {@code jdbc:sqlite:file:dir/t.db?mode=ro}), so a reader can see it is missing before opening it (the driver would
 * create it). Empty for other URLs and for in-memory databases.
 */
public final class SqliteTargetFile {
    private static final String PREFIX = "jdbc:sqlite:";

    private SqliteTargetFile() {
    }

    public static Optional<Path> of(String jdbcUrl) {
        if (!jdbcUrl.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String rest = jdbcUrl.substring(PREFIX.length());
        if (rest.startsWith("file:")) {
            rest = rest.substring("file:".length());
        }
        int query = rest.indexOf('?');
        if (query >= 0) {
            rest = rest.substring(0, query);
        }
        if (rest.isEmpty() || rest.equals(":memory:") || rest.startsWith(":resource:")) {
            return Optional.empty();
        }
        return Optional.of(Path.of(rest));
    }
}
