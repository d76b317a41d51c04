package dev.tidemark.sink.kafka;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.SourcePosition;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Whether the last records a sink applied from one topic partition leave a row in the target table (pure): the
 * evidence that a target table found empty at a resume was emptied by hand, read by {@code tidemark run} /
 * {@code tidemark sink} at start and by the Connect plugin's task when it opens a partition, each over at most
 * {@value #WINDOW} records just below the partition's stored offset. Records of
 * one key share a partition, so a key whose last record below the stored offset is an {@link ChangeEvent.Upsert} is a
 * row the target must hold: no later record of it has been applied. A {@link ChangeEvent.Delete} removes its key; a
 * {@link ChangeEvent.Truncate} removes the keys written at a position older than its own, as the sink does: a source
 * truncate every key before it, a snapshot's sweep the keys the snapshot did not read again (its own rows are at its
 * position). Schema changes leave rows alone. (Records of keyless tables do not decode into events; the reader passes
 * them over.)
 *
 * <p>Example: {@code r k1, r k2, d k1} → true (k2); {@code r k1, d k1} → false; {@code r k1, t} → false;
 * {@code r k1 (snapshot S), sweep (S)} → true.
 */
public final class AppliedRows {
    /** How many records just below a stored offset the checks read, per partition. */
    public static final int WINDOW = 1000;

    private AppliedRows() {
    }

    /** {@code events} in offset order, the last one the record just below the stored offset. */
    public static boolean leaveARow(List<ChangeEvent> events) {
        Map<Map<String, Object>, SourcePosition> live = new HashMap<>();
        for (ChangeEvent e : events) {
            if (e instanceof ChangeEvent.Upsert u) {
                live.put(comparable(u.key()), u.position());
            } else if (e instanceof ChangeEvent.Delete d) {
                live.remove(comparable(d.key()));
            } else if (e instanceof ChangeEvent.Truncate t) {
                live.values().removeIf(at -> olderThan(at, t.position()));
            } // a schema change leaves the rows alone
        }
        return !live.isEmpty();
    }

    /** Whether a row written at {@code at} is older than a truncate at {@code truncate}; unknown positions are. */
    private static boolean olderThan(SourcePosition at, SourcePosition truncate) {
        return at instanceof SourcePosition.Unknown || truncate instanceof SourcePosition.Unknown || at.compareTo(truncate) < 0;
    }

    /** The key with byte arrays as hex, so that equal keys decoded twice are equal. */
    private static Map<String, Object> comparable(Map<String, Object> key) {
        Map<String, Object> out = new HashMap<>();
        key.forEach((k, v) -> out.put(k, v instanceof byte[] b ? HexFormat.of().formatHex(b) : v));
        return out;
    }
}
