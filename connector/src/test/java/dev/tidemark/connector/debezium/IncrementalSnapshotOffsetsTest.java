package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IncrementalSnapshotOffsetsTest {
    static Map<String, Object> chunkRow() {
        Map<String, Object> o = new HashMap<>();
        o.put("lsn", 55213984L);
        o.put("lsn_commit", 55213984L);
        o.put("txId", 928L);
        o.put("snapshot", "INCREMENTAL");
        o.put("last_snapshot_record", false);
        o.put("snapshot_completed", false);
        o.put(IncrementalSnapshotMarks.COLLECTIONS, "[{\"incremental_snapshot_collections_id\":\"public.a\"}]");
        o.put("incremental_snapshot_primary_key", "aced0005");
        o.put("incremental_snapshot_maximum_key", "aced0006");
        return o;
    }

    @Test
    void anIncrementalSnapshotRowsOffsetIsStoredWithoutTheSnapshotMarkAndKeepsTheSnapshotsState() {
        Map<String, ?> stored = IncrementalSnapshotOffsets.resumable(chunkRow());
        Map<String, Object> expected = chunkRow();
        expected.remove("snapshot");
        expected.remove("last_snapshot_record");
        expected.remove("snapshot_completed");
        assertThat(stored).isEqualTo(expected);
    }

    @Test
    void streamedAndInitialSnapshotOffsetsAreStoredAsTheyAre() {
        Map<String, Object> streamed = chunkRow();
        streamed.remove("snapshot");
        streamed.remove("last_snapshot_record");
        streamed.remove("snapshot_completed");
        assertThat(IncrementalSnapshotOffsets.resumable(streamed)).isSameAs(streamed);
        Map<String, Object> initial = new HashMap<>(Map.of("lsn", 1L, "snapshot", "INITIAL", "last_snapshot_record", false, "snapshot_completed", false));
        assertThat(IncrementalSnapshotOffsets.resumable(initial)).isSameAs(initial);
        assertThat(IncrementalSnapshotOffsets.resumable(null)).isNull();
    }
}
