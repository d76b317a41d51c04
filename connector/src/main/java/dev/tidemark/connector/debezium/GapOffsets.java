package dev.tidemark.connector.debezium;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * The offsets capture stores when the user accepts a gap ({@code --accept-gap}): the stored offsets moved to the
 * replication slot's confirmed position, so the engine starts streaming there. Pure: bytes in, bytes out.
 *
 * <p>Why: Debezium checks at start that the slot's {@code restart_lsn} is not past the stored position and stops
 * ("The connector is trying to read change stream starting at … but this is no longer available on the server")
 * when it is, which is exactly the case after {@code pg_replication_slot_advance} or with an old offsets file. The
 * slot's {@code confirmed_flush_lsn} is never below its {@code restart_lsn}, so offsets naming it pass that check; and
 * as Debezium resumes after the stored LSN (DBZ#1554) while the server sends only transactions committed after the
 * confirmed position, nothing the server still holds is skipped.
 *
 * <p>Every entry whose value is a JSON object gets {@code lsn}, {@code lsn_proc} and {@code lsn_commit} set to the
 * position and loses the snapshot markers (the snapshot is long done); other fields are kept as stored.
 */
final class GapOffsets {
    private static final List<String> LSN_FIELDS = List.of("lsn", "lsn_proc", "lsn_commit");
    private static final List<String> SNAPSHOT_FIELDS = List.of("snapshot", "last_snapshot_record", "snapshot_completed");

    private GapOffsets() {
    }

    /** {@code entries} with every JSON value moved to {@code position}. */
    static Map<ByteBuffer, ByteBuffer> movedTo(Map<ByteBuffer, ByteBuffer> entries, Lsn position) {
        return OffsetValues.edited(entries, o -> {
            LSN_FIELDS.forEach(f -> o.put(f, position.value()));
            SNAPSHOT_FIELDS.forEach(o::remove);
            return true;
        });
    }
}
