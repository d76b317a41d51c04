package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The offsets file round-trips, and every damaged shape is reported as damaged (never as "no offsets"). */
class OffsetsFileTest {
    static final byte[] KEY = "[\"orders\",{\"server\":\"orders\"}]".getBytes(StandardCharsets.UTF_8);
    static final byte[] VALUE = "{\"lsn_proc\":37879000,\"lsn_commit\":37878800,\"lsn\":37879000,\"txId\":771,\"ts_usec\":1}"
            .getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    static Map<ByteBuffer, ByteBuffer> entries() {
        return Map.of(ByteBuffer.wrap(KEY), ByteBuffer.wrap(VALUE));
    }

    @Test
    void roundTripsAndNamesTheFurthestPosition() throws Exception {
        Path f = dir.resolve("p.offsets");
        OffsetsFile.write(f, entries());
        StoredOffsets read = OffsetsFile.read(f);
        assertThat(read).isInstanceOf(StoredOffsets.Present.class);
        StoredOffsets.Present p = (StoredOffsets.Present) read;
        assertThat(p.entries()).isEqualTo(entries());
        assertThat(p.position()).contains(new Lsn(37879000));
        assertThat(p.legacy()).isFalse();
        assertThat(Files.exists(dir.resolve("p.offsets.tmp"))).as("no temporary file left behind").isFalse();
        OffsetsFile.write(f, Map.of());
        assertThat(OffsetsFile.read(f)).isInstanceOf(StoredOffsets.Present.class);
    }

    @Test
    void offsetsStoredBeforeTheLastSnapshotRowSayTheSnapshotIsIncomplete() {
        java.util.function.Function<String, Map<ByteBuffer, ByteBuffer>> one = json ->
                Map.of(ByteBuffer.wrap(KEY), ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)));
        assertThat(OffsetsFile.snapshotIncomplete(one.apply("{\"lsn\":5,\"snapshot\":\"INITIAL\",\"last_snapshot_record\":false}"))).isTrue();
        assertThat(OffsetsFile.snapshotIncomplete(one.apply("{\"lsn\":5,\"snapshot\":\"INITIAL\",\"last_snapshot_record\":true}"))).isFalse();
        assertThat(OffsetsFile.snapshotIncomplete(one.apply("{\"lsn\":5,\"snapshot\":\"INITIAL\",\"snapshot_completed\":true}"))).isFalse();
        assertThat(OffsetsFile.snapshotIncomplete(one.apply(new String(VALUE, StandardCharsets.UTF_8)))).isFalse();
        // stored while streaming, during an incremental snapshot of a table added to the pipeline (kill -9 then)
        assertThat(OffsetsFile.snapshotIncomplete(one.apply("{\"lsn\":5,\"snapshot\":\"INCREMENTAL\",\"last_snapshot_record\":false,"
                + "\"snapshot_completed\":false,\"incremental_snapshot_collections\":\"[]\"}"))).isFalse();
    }

    @Test
    void aMissingFileIsAbsent() {
        assertThat(OffsetsFile.read(dir.resolve("none.offsets"))).isEqualTo(new StoredOffsets.Absent(dir.resolve("none.offsets")));
    }

    @Test
    void everyTruncationAndAnEmptyFileAreDamaged() throws Exception {
        Path f = dir.resolve("p.offsets");
        OffsetsFile.write(f, entries());
        byte[] whole = Files.readAllBytes(f);
        for (int len = 0; len < whole.length; len++) {
            Files.write(f, java.util.Arrays.copyOf(whole, len));
            assertThat(OffsetsFile.read(f)).as("truncated to " + len + " of " + whole.length + " bytes").isInstanceOf(StoredOffsets.Damaged.class);
        }
    }

    @Test
    void aChangedByteIsDamaged() throws Exception {
        Path f = dir.resolve("p.offsets");
        OffsetsFile.write(f, entries());
        byte[] b = Files.readAllBytes(f);
        b[b.length - 5] ^= 0x01;
        Files.write(f, b);
        StoredOffsets read = OffsetsFile.read(f);
        assertThat(read).isInstanceOf(StoredOffsets.Damaged.class);
        assertThat(((StoredOffsets.Damaged) read).reason()).contains("checksum");
    }

    @Test
    void anUnknownVersionIsDamagedNotIgnored() throws Exception {
        Path f = dir.resolve("p.offsets");
        Files.writeString(f, "tidemark-offsets v9 entries=0 crc32c=00000000\n");
        assertThat(((StoredOffsets.Damaged) OffsetsFile.read(f)).reason()).contains("v9");
    }

    @Test
    void aLegacyKafkaFileIsReadOnceAndATornOneIsDamaged() throws Exception {
        HashMap<byte[], byte[]> legacy = new HashMap<>();
        legacy.put(KEY, VALUE);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(legacy);
        }
        Path f = dir.resolve("legacy.offsets");
        Files.write(f, bytes.toByteArray());
        StoredOffsets read = OffsetsFile.read(f);
        assertThat(read).isInstanceOf(StoredOffsets.Present.class);
        assertThat(((StoredOffsets.Present) read).legacy()).isTrue();
        assertThat(((StoredOffsets.Present) read).entries()).isEqualTo(entries());
        assertThat(((StoredOffsets.Present) read).position()).contains(new Lsn(37879000));

        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(100);
        }
        assertThat(OffsetsFile.read(f)).isInstanceOf(StoredOffsets.Damaged.class);
    }
}
