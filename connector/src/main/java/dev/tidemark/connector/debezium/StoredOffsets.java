package dev.tidemark.connector.debezium;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What capture's offsets file holds, read before the engine starts (see {@link OffsetsFile#read(Path)}): nothing,
 * something that cannot be trusted, or Debezium's offsets with the WAL position they resume from.
 */
public sealed interface StoredOffsets {
    Path file();

    /** No offsets file: capture has never stored a position here. */
    record Absent(Path file) implements StoredOffsets {
    }

    /** The file exists but cannot be read as offsets (empty, torn, checksum mismatch, unknown version). */
    record Damaged(Path file, String reason) implements StoredOffsets {
    }

    /**
     * Offsets as Debezium stored them (serialised keys and values) and the WAL position they name.
     *
     * @param entries  Debezium's offsets: JSON key (engine name, server) → JSON value (LSNs, transaction id)
     * @param position the furthest WAL position the offsets name ({@code lsn}, {@code lsn_proc}, {@code lsn_commit}),
     *                 empty when no entry names one
     * @param legacy   true when read from Kafka's {@code FileOffsetBackingStore} format (written by an older Tidemark)
     * @param snapshotIncomplete true when the offsets were stored during the initial snapshot, before its last row:
     *                 Debezium would take the whole snapshot again
     */
    record Present(Path file, Map<ByteBuffer, ByteBuffer> entries, Optional<Lsn> position, boolean legacy,
                   boolean snapshotIncomplete) implements StoredOffsets {
        public Present {
            entries = java.util.Collections.unmodifiableMap(new java.util.HashMap<>(entries));
        }
    }
}
