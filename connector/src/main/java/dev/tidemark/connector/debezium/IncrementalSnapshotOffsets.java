package dev.tidemark.connector.debezium;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The source offset the engine may store for a record so that a restart resumes a running incremental snapshot as it
 * was.
 *
 * <p>Why: Debezium 3.6.1 writes {@code snapshot=INCREMENTAL} (with {@code last_snapshot_record} and
 * {@code snapshot_completed}) into the offset of each row an incremental snapshot reads, beside the snapshot's state
 * ({@code incremental_snapshot_collections}, the last key read). Its PostgreSQL offset loader reads any stored
 * {@code snapshot} as a snapshot under way: after a restart from such an offset, every record it streams until the
 * snapshot's next chunk is sent says {@code snapshot=true} in its {@code source} block and leaves the snapshot's state
 * out of its offset. Capture would take those records for an ended snapshot, and storing one of their offsets would
 * make a later restart forget the snapshot.
 *
 * <p>Rule: an offset whose {@code snapshot} is {@code INCREMENTAL} is stored without those three keys (the snapshot's
 * state stays, so a restart reads on after the last key stored); every other offset, an initial snapshot's included,
 * is stored as it is (the same instance). Offsets stored by an earlier Tidemark without this rule are rewritten by it
 * when the offsets file is loaded ({@link #resumableEntries}). Pure.
 */
final class IncrementalSnapshotOffsets {
    private static final Set<String> SNAPSHOT_MARK = Set.of("snapshot", "last_snapshot_record", "snapshot_completed");

    private IncrementalSnapshotOffsets() {
    }

    /** The offset to store for a record whose own offset is {@code offset} (null stays null). */
    static Map<String, ?> resumable(Map<String, ?> offset) {
        if (offset == null || !"INCREMENTAL".equals(String.valueOf(offset.get("snapshot")))) {
            return offset;
        }
        Map<String, Object> stored = new HashMap<>(offset);
        stored.keySet().removeAll(SNAPSHOT_MARK);
        return stored;
    }

    /** The entries of an offsets file, each value ({@code JSON}) rewritten by {@link #resumable}. */
    static Map<ByteBuffer, ByteBuffer> resumableEntries(Map<ByteBuffer, ByteBuffer> entries) {
        return OffsetValues.edited(entries, o -> {
            if (!o.path("snapshot").isTextual() || !"INCREMENTAL".equals(o.get("snapshot").asText())) {
                return false;
            }
            SNAPSHOT_MARK.forEach(o::remove);
            return true;
        });
    }
}
