package dev.tidemark.process;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * Gives this process a folder of its own for the native libraries its dependencies unpack (sqlite-jdbc through
 * {@code org.sqlite.tmpdir}; lz4-java, which knows only {@code java.io.tmpdir}, is loaded here with that property
 * pointing at the folder, and restored afterwards): {@code <java.io.tmpdir>/tidemark-native/<pid>-<start ms>}. The
 * folder is removed when the JVM exits normally; the folders of processes no longer running (killed with SIGKILL, or
 * halted) are removed by the next call in any process. Call it first in {@code main}, before any native library loads.
 * Not for concurrent use within one process.
 */
public final class NativeLibraryFolder {
    static final String ROOT = "tidemark-native";

    private NativeLibraryFolder() {
    }

    /** Creates and uses this process's folder, after removing those of dead processes; returns it. */
    public static Path useOwn() {
        String tmp = System.getProperty("java.io.tmpdir");
        Path root = Path.of(tmp, ROOT);
        try {
            Files.createDirectories(root);
            removeDead(root);
            ProcessHandle self = ProcessHandle.current();
            Path own = Files.createDirectories(root.resolve(name(self.pid(), startOf(self.pid()).orElse(Instant.EPOCH))));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> Directories.deleteOrWarn(own, "native library"), "tidemark-native-folder"));
            System.setProperty("org.sqlite.tmpdir", own.toString());
            loadLz4Into(own, tmp);
            return own;
        } catch (IOException e) {
            return Path.of(tmp); // the libraries then unpack where they always did
        }
    }

    /** The folder name of process {@code pid} started at {@code start}. */
    static String name(long pid, Instant start) {
        return pid + "-" + start.toEpochMilli();
    }

    /**
     * True when {@code folder} names a process that no longer runs: no process with its pid, or one started at
     * another time (the pid was reused). Names of another form are never claimed.
     */
    static boolean ofDeadProcess(String folder, LongFunction<Optional<Instant>> startOf) {
        String[] parts = folder.split("-");
        if (parts.length != 2 || !parts[0].matches("\\d+") || !parts[1].matches("\\d+")) {
            return false;
        }
        Optional<Instant> start = startOf.apply(Long.parseLong(parts[0]));
        return start.isEmpty() || start.get().toEpochMilli() != Long.parseLong(parts[1]);
    }

    private static Optional<Instant> startOf(long pid) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .map(p -> p.info().startInstant().orElse(Instant.EPOCH));
    }

    private static void removeDead(Path root) throws IOException {
        try (DirectoryStream<Path> folders = Files.newDirectoryStream(root)) {
            for (Path folder : folders) {
                if (ofDeadProcess(folder.getFileName().toString(), NativeLibraryFolder::startOf)) {
                    delete(folder);
                }
            }
        }
    }

    /** Loads lz4-java's native library (when lz4-java is on the class path) with {@code java.io.tmpdir} at {@code own}. */
    private static void loadLz4Into(Path own, String tmp) {
        System.setProperty("java.io.tmpdir", own.toString());
        try {
            Class.forName("net.jpountz.util.Native").getMethod("load").invoke(null);
        } catch (ReflectiveOperationException | LinkageError e) {
            // no lz4-java here, or no native build for this platform: lz4-java falls back to Java
        } finally {
            System.setProperty("java.io.tmpdir", tmp);
        }
    }

    private static void delete(Path folder) {
        try {
            Directories.deleteRecursively(folder);
        } catch (IOException | RuntimeException e) {
            // a later start tries again
        }
    }
}
