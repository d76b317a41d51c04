package dev.tidemark.process;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Recursive folder removal that tolerates files vanishing while it runs and never follows symbolic links. */
public final class Directories {

    private Directories() {
    }

    /** As {@link #deleteRecursively}, and logs a warning naming {@code what} instead of throwing. */
    public static void deleteOrWarn(Path dir, String what) {
        try {
            deleteRecursively(dir);
        } catch (IOException | RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(Directories.class).warn("Could not delete {} folder {}: {}", what, dir, e.toString());
        }
    }

    /** Deletes {@code dir} and everything below it, without following symbolic links. Absent is fine. */
    public static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path directory, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                Files.deleteIfExists(directory);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
