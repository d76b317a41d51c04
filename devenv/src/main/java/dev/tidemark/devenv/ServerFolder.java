package dev.tidemark.devenv;

import dev.tidemark.process.Directories;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The folder a local server ({@link LocalPostgres}, {@link LocalKafka}) runs in and owns. {@link #close(Runnable)}
 * stops the server and then deletes the folder, the first time only, from any thread; a folder that cannot be deleted
 * is a warning naming it, never an exception.
 */
final class ServerFolder {
    private final Path path;
    private final String server;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** {@code path} absolute; {@code server} names the server in the warning ("Kafka", "PostgreSQL"). */
    ServerFolder(Path path, String server) {
        this.path = path;
        this.server = server;
    }

    Path path() {
        return path;
    }

    /** Runs {@code stop} (which must not throw), then deletes the folder; does nothing after the first call. */
    void close(Runnable stop) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        stop.run();
        Directories.deleteOrWarn(path, server);
    }
}
