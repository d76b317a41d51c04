package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.runtime.standalone.StandaloneConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine's offset store: what it writes survives a restart, and a damaged file stops it naming the file. */
class DurableOffsetBackingStoreTest {
    @TempDir
    Path dir;

    private DurableOffsetBackingStore started(Path file) {
        DurableOffsetBackingStore store = new DurableOffsetBackingStore();
        store.configure(new StandaloneConfig(Map.of(
                "key.converter", "org.apache.kafka.connect.json.JsonConverter",
                "value.converter", "org.apache.kafka.connect.json.JsonConverter",
                "bootstrap.servers", "unused:9092",
                DurableOffsetBackingStore.FILE_PROPERTY, file.toString())));
        store.start();
        return store;
    }

    @Test
    void whatItStoresSurvivesARestart() throws Exception {
        Path file = dir.resolve("p.offsets");
        ByteBuffer key = ByteBuffer.wrap("k".getBytes(StandardCharsets.UTF_8));
        ByteBuffer value = ByteBuffer.wrap("{\"lsn\":42}".getBytes(StandardCharsets.UTF_8));
        DurableOffsetBackingStore first = started(file);
        first.set(Map.of(key, value), null).get(10, TimeUnit.SECONDS);
        first.stop();
        assertThat(((StoredOffsets.Present) OffsetsFile.read(file)).position()).contains(new Lsn(42));

        DurableOffsetBackingStore second = started(file);
        assertThat(second.get(List.of(key)).get(10, TimeUnit.SECONDS)).containsEntry(key, value);
        second.stop();
    }

    @Test
    void aDamagedFileStopsTheStartNamingTheFile() throws Exception {
        Path file = dir.resolve("p.offsets");
        Files.write(file, new byte[0]);
        assertThatThrownBy(() -> started(file)).isInstanceOf(ConnectException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("damaged");
    }

    @Test
    void anIncrementalSnapshotRowMarkAnEarlierVersionStoredIsLoadedWithoutIt() throws Exception {
        Path file = dir.resolve("p.offsets");
        ByteBuffer key = ByteBuffer.wrap("k".getBytes(StandardCharsets.UTF_8));
        ByteBuffer legacy = ByteBuffer.wrap(("{\"lsn\":42,\"snapshot\":\"INCREMENTAL\",\"last_snapshot_record\":false,"
                + "\"snapshot_completed\":false,\"incremental_snapshot_collections\":\"[]\"}").getBytes(StandardCharsets.UTF_8));
        OffsetsFile.write(file, Map.of(key, legacy));

        DurableOffsetBackingStore store = started(file);
        ByteBuffer loaded = store.get(List.of(key)).get(10, TimeUnit.SECONDS).get(key);
        store.stop();
        assertThat(StandardCharsets.UTF_8.decode(loaded).toString())
                .isEqualTo("{\"lsn\":42,\"incremental_snapshot_collections\":\"[]\"}");
    }
}
