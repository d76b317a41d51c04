package dev.tidemark.connector.pipeline;

import dev.tidemark.event.ChangeEvent;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether the last records a sink applied from one topic partition leave a row in the target table (pure). Records of
 * one key share a partition, so a key whose last record below the stored offset is an {@link ChangeEvent.Upsert} is a
 * row the target must hold: no later record of it has been applied. A {@link ChangeEvent.Delete} removes its key, a
 * {@link ChangeEvent.Truncate} (or a re-snapshot's sweep) every key before it; schema changes leave rows alone.
 * (Records of keyless tables do not decode into events; the reader passes them over.)
 *
 * <p>Example: {@code r k1, r k2, d k1} → true (k2); {@code r k1, d k1} → false; {@code r k1, t} → false.
 */
final class AppliedRows {
    private AppliedRows() {
    }

    /** {@code events} in offset order, the last one the record just below the stored offset. */
    static boolean leaveARow(List<ChangeEvent> events) {
        Set<Map<String, Object>> live = new HashSet<>();
        for (ChangeEvent e : events) {
            if (e instanceof ChangeEvent.Upsert u) {
                live.add(comparable(u.key()));
            } else if (e instanceof ChangeEvent.Delete d) {
                live.remove(comparable(d.key()));
            } else if (e instanceof ChangeEvent.Truncate) {
                live.clear();
            } // a schema change leaves the rows alone
        }
        return !live.isEmpty();
    }

    /** The key with byte arrays as hex, so that equal keys decoded twice are equal. */
    private static Map<String, Object> comparable(Map<String, Object> key) {
        Map<String, Object> out = new HashMap<>();
        key.forEach((k, v) -> out.put(k, v instanceof byte[] b ? HexFormat.of().formatHex(b) : v));
        return out;
    }
}
