package dev.tidemark.connector.debezium;

import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The incremental snapshots capture saw begin and not yet end ({@link IncrementalSnapshotMarks}), kept beside the
 * offsets file as {@code <offsets>.incremental}, one line per table: {@code schema.table<TAB>position}. Written
 * atomically before the records that changed it are marked processed, so a restart still sends each ended snapshot's
 * sweep (at worst twice: a sweep is idempotent).
 */
final class IncrementalSnapshotFile {
    private IncrementalSnapshotFile() {
    }

    static Path fileFor(Path offsetsFile) {
        return offsetsFile.resolveSibling(offsetsFile.getFileName() + ".incremental");
    }

    static Map<TableId, SourcePosition.Wal> read(Path offsetsFile) {
        Path file = fileFor(offsetsFile);
        Map<TableId, SourcePosition.Wal> out = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return out;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int tab = line.indexOf('\t');
                if (tab < 0) {
                    continue;
                }
                if (SourcePosition.decode(line.substring(tab + 1)) instanceof SourcePosition.Wal w) {
                    out.put(TableId.parse(line.substring(0, tab)), w);
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return out;
    }

    static void write(Path offsetsFile, Map<TableId, SourcePosition.Wal> running) throws IOException {
        Path file = fileFor(offsetsFile);
        StringBuilder body = new StringBuilder();
        running.forEach((t, p) -> body.append(t.schema()).append('.').append(t.table()).append('\t').append(p.encode()).append('\n'));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, body, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
