package dev.tidemark.devenv;

import java.nio.file.Path;

/** Placeholder: the process's own folder for the native libraries its dependencies unpack. */
public final class NativeLibraryFolder {
    private NativeLibraryFolder() {
    }

    /** Does nothing yet. */
    public static Path useOwn() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }
}
