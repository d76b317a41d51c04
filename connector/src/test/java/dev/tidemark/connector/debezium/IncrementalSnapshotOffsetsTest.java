package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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

    @Test
    void anOffsetsFilesEntriesLoseOnlyAnIncrementalSnapshotRowsMark() {
        ByteBuffer k1 = utf8("a");
        ByteBuffer k2 = utf8("b");
        ByteBuffer k3 = utf8("c");
        ByteBuffer initial = utf8("{\"lsn\":1,\"snapshot\":\"INITIAL\",\"last_snapshot_record\":false}");
        ByteBuffer notJson = utf8("not json");
        Map<ByteBuffer, ByteBuffer> entries = new HashMap<>();
        entries.put(k1, utf8("{\"lsn\":7,\"snapshot\":\"INCREMENTAL\",\"snapshot_completed\":false,\"txId\":3}"));
        entries.put(k2, initial);
        entries.put(k3, notJson);
        Map<ByteBuffer, ByteBuffer> out = IncrementalSnapshotOffsets.resumableEntries(entries);
        assertThat(StandardCharsets.UTF_8.decode(out.get(k1)).toString()).isEqualTo("{\"lsn\":7,\"txId\":3}");
        assertThat(out.get(k2)).isSameAs(initial);
        assertThat(out.get(k3)).isSameAs(notJson);
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}
