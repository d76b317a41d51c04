package dev.tidemark.connector.debezium;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The note a capture leaves beside its offsets file ({@code <offsets>.no-first-position}) when it stops before it
 * stored a first position: it holds the one command that continues ({@code tidemark run --config F --resnapshot}).
 * Nothing was captured then, so the next start refuses every way on but that one ({@link CaptureStartDecision}).
 * Written by {@link PositionMarker}, removed once a position is stored or a new snapshot starts.
 */
final class FirstPositionNote {
    private FirstPositionNote() {
    }

    static Path fileFor(Path offsetsFile) {
        return offsetsFile.resolveSibling(offsetsFile.getFileName() + ".no-first-position");
    }

    static void write(Path offsetsFile, String command) throws IOException {
        Files.createDirectories(offsetsFile.toAbsolutePath().getParent());
        Files.writeString(fileFor(offsetsFile), command + "\n", StandardCharsets.UTF_8);
    }

    /** The command the note holds, or empty when there is no note (or it cannot be read). */
    static Optional<String> read(Path offsetsFile) {
        try {
            String command = Files.readString(fileFor(offsetsFile), StandardCharsets.UTF_8).strip();
            return command.isEmpty() ? Optional.empty() : Optional.of(command);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static void clear(Path offsetsFile) throws IOException {
        Files.deleteIfExists(fileFor(offsetsFile));
    }
}
