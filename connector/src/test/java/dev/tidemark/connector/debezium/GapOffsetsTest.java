package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GapOffsetsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode json(ByteBuffer b) throws Exception {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return JSON.readTree(out);
    }

    @Test
    void everyLsnFieldNamesTheSlotsPositionAndTheSnapshotMarkersAreGone() throws Exception {
        ByteBuffer key = utf8("[\"orders\",{\"server\":\"orders\"}]");
        Map<ByteBuffer, ByteBuffer> entries = new HashMap<>();
        entries.put(key, utf8("{\"lsn\":100,\"lsn_proc\":90,\"lsn_commit\":80,\"txId\":7,\"ts_usec\":5,\"snapshot\":\"INITIAL\","
                + "\"last_snapshot_record\":true}"));
        Map<ByteBuffer, ByteBuffer> moved = GapOffsets.movedTo(entries, new Lsn(5000));
        JsonNode v = json(moved.get(key));
        assertThat(v.get("lsn").asLong()).isEqualTo(5000);
        assertThat(v.get("lsn_proc").asLong()).isEqualTo(5000);
        assertThat(v.get("lsn_commit").asLong()).isEqualTo(5000);
        assertThat(v.get("txId").asLong()).as("other fields kept").isEqualTo(7);
        assertThat(v.has("snapshot")).isFalse();
        assertThat(v.has("last_snapshot_record")).isFalse();
        assertThat(OffsetsFile.furthest(moved)).contains(new Lsn(5000));
        assertThat(OffsetsFile.snapshotIncomplete(moved)).isFalse();
    }

    @Test
    void valuesThatAreNotJsonObjectsAndNullValuesAreLeftAsTheyAre() {
        ByteBuffer a = utf8("a");
        ByteBuffer b = utf8("b");
        Map<ByteBuffer, ByteBuffer> entries = new HashMap<>();
        entries.put(a, utf8("not json"));
        entries.put(b, null);
        Map<ByteBuffer, ByteBuffer> moved = GapOffsets.movedTo(entries, new Lsn(1));
        assertThat(moved.get(a)).isEqualTo(utf8("not json"));
        assertThat(moved).containsKey(b);
        assertThat(moved.get(b)).isNull();
    }
}
