package dev.tidemark.connector.debezium;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.MemoryOffsetBackingStore;

/**
 * Debezium's offset store for Tidemark capture, set through the engine property {@code offset.storage}; the file is
 * named by {@code offset.storage.file.filename}. Keeps the offsets in memory (as Kafka's
 * {@link MemoryOffsetBackingStore}) and writes every flush with {@link OffsetsFile#write} (temporary file, fsync,
 * atomic rename, fsync of the folder), so a crash or {@code kill -9} leaves the previous or the new offsets, never a
 * torn file. On start a damaged file is an error naming the file, never "no offsets"; an offset an earlier version
 * stored with an incremental snapshot's row mark is loaded without it ({@link IncrementalSnapshotOffsets}).
 *
 * <p>Thread-safety: as {@link MemoryOffsetBackingStore}: reads and writes run on its single executor thread.
 */
public final class DurableOffsetBackingStore extends MemoryOffsetBackingStore {
    static final String FILE_PROPERTY = "offset.storage.file.filename";
    private Path file;

    public DurableOffsetBackingStore() {
    }

    @Override
    public void configure(WorkerConfig config) {
        super.configure(config);
        String name = config.originalsStrings().get(FILE_PROPERTY);
        if (name == null || name.isBlank()) {
            throw new ConnectException(FILE_PROPERTY + " must name capture's offsets file");
        }
        file = Path.of(name);
    }

    @Override
    public synchronized void start() {
        super.start();
        StoredOffsets stored = OffsetsFile.read(file);
        if (stored instanceof StoredOffsets.Damaged d) {
            throw new ConnectException("capture offsets file " + d.file() + " is damaged: " + d.reason());
        }
        data = stored instanceof StoredOffsets.Present p ? IncrementalSnapshotOffsets.resumableEntries(p.entries()) : new HashMap<>();
    }

    @Override
    protected void save() {
        try {
            OffsetsFile.write(file, data);
        } catch (IOException e) {
            throw new ConnectException("cannot write capture offsets file " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Set<Map<String, Object>> connectorPartitions(String connectorName) {
        return Set.of();
    }
}
