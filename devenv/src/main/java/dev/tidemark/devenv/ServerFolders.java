package dev.tidemark.devenv;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * New temporary folders to start throwaway servers under ({@link LocalPostgres}, {@link LocalKafka}). As root,
 * PostgreSQL runs as the unprivileged {@code postgres} account ({@link ServerAccount}), which must be able to pass
 * through every folder above its cluster; {@link Files#createTempDirectory} makes folders only their owner may enter
 * (mode 0700). These are {@code rwx--x--x}: others may pass through, not list or write.
 */
public final class ServerFolders {
    private ServerFolders() {
    }

    /** A new folder {@code prefix…} under {@code parent}, or under the system's temporary folder when it is null. */
    public static Path newTemporary(Path parent, String prefix) throws IOException {
        var traversable = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x"));
        return parent == null ? Files.createTempDirectory(prefix, traversable) : Files.createTempDirectory(parent, prefix, traversable);
    }
}
