package dev.tidemark.connector.debezium;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The furthest WAL position of the records Kafka has acknowledged (and of Tidemark's position markers), written
 * atomically and durably before those records are marked processed with the engine ({@code NAME.offsets.delivered}
 * next to the offsets file).
 *
 * <p>Why: Debezium confirms a position to the replication slot from the records marked processed, at its next poll
 * — which can be after the engine stored its offsets for a second time. A {@code kill -9} in between leaves the slot
 * ahead of the stored offsets although nothing was lost (every record up to the slot's position is in Kafka). This
 * file tells that case apart from a slot advanced by hand: a slot at or below the delivered position is safe to
 * resume from. A missing or damaged file only removes that allowance (capture then refuses, the safe side).
 *
 * <p>Format: one line {@code tidemark-delivered v1 <position as 16 hex digits> crc32c=<8 hex digits>}. Not
 * thread-safe: used by the engine's one consumer thread.
 */
final class DeliveredPosition {
    private static final String MAGIC = "tidemark-delivered";
    private final Path file;
    private Lsn current;

    DeliveredPosition(Path offsetsFile) {
        this.file = fileFor(offsetsFile);
        this.current = read(offsetsFile).orElse(null);
    }

    static Path fileFor(Path offsetsFile) {
        return offsetsFile.resolveSibling(offsetsFile.getFileName() + ".delivered");
    }

    /** The stored delivered position, or empty when the file is missing or cannot be trusted. */
    static Optional<Lsn> read(Path offsetsFile) {
        try {
            String[] parts = Files.readString(fileFor(offsetsFile), StandardCharsets.UTF_8).trim().split(" ");
            if (parts.length != 4 || !parts[0].equals(MAGIC) || !parts[1].equals("v1") || !parts[3].equals(crc(parts[2]))) {
                return Optional.empty();
            }
            return Optional.of(new Lsn(Long.parseUnsignedLong(parts[2], 16)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Stores {@code position} durably if it is further than the stored one. */
    void advanceTo(Lsn position) throws IOException {
        if (current != null && !position.isAfter(current)) {
            return;
        }
        String hex = String.format(Locale.ROOT, "%016x", position.value());
        OffsetsFile.writeAtomically(file, (MAGIC + " v1 " + hex + " " + crc(hex) + "\n").getBytes(StandardCharsets.UTF_8));
        current = position;
    }

    private static String crc(String hex) {
        CRC32C c = new CRC32C();
        c.update(hex.getBytes(StandardCharsets.US_ASCII));
        return String.format(Locale.ROOT, "crc32c=%08x", c.getValue());
    }
}
