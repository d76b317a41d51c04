package dev.tidemark.connector.debezium;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * The pipeline's owner record in its state folder, {@code <stateDir>/<name>.owner}: one line, {@link SlotOwner#encode()}.
 * Its id is created once (the first start that passes every check) and kept; the slot and publication names follow
 * what the pipeline created. Written atomically (a sibling {@code .tmp} moved over it).
 */
final class OwnerFile {
    private OwnerFile() {
    }

    static Path fileFor(Path stateDir, String pipeline) {
        return stateDir.resolve(pipeline + ".owner");
    }

    /** The record, or empty when the file does not exist or is not a Tidemark owner record. */
    static Optional<SlotOwner> read(Path stateDir, String pipeline) {
        try {
            return SlotOwner.decode(Files.readString(fileFor(stateDir, pipeline), StandardCharsets.UTF_8).strip());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + fileFor(stateDir, pipeline) + ": " + e.getMessage(), e);
        }
    }

    static void write(Path stateDir, SlotOwner owner) {
        Path file = fileFor(stateDir, owner.pipeline());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(stateDir);
            Files.writeString(tmp, owner.encode() + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
