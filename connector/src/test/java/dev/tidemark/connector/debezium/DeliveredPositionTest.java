package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeliveredPositionTest {
    @TempDir
    Path dir;

    @Test
    void onlyMovesForwardAndSurvivesARestart() throws Exception {
        Path offsets = dir.resolve("p.offsets");
        assertThat(DeliveredPosition.read(offsets)).isEmpty();
        DeliveredPosition d = new DeliveredPosition(offsets);
        d.advanceTo(Lsn.parse("1/10"));
        d.advanceTo(Lsn.parse("0/FF"));
        assertThat(DeliveredPosition.read(offsets)).contains(Lsn.parse("1/10"));
        new DeliveredPosition(offsets).advanceTo(Lsn.parse("1/5"));
        assertThat(DeliveredPosition.read(offsets)).contains(Lsn.parse("1/10"));
    }

    @Test
    void aDamagedFileIsNotTrusted() throws Exception {
        Path offsets = dir.resolve("p.offsets");
        new DeliveredPosition(offsets).advanceTo(Lsn.parse("1/10"));
        Path file = DeliveredPosition.fileFor(offsets);
        Files.writeString(file, Files.readString(file).replace("0000000100000010", "0000000100000011"));
        assertThat(DeliveredPosition.read(offsets)).isEmpty();
        Files.writeString(file, "");
        assertThat(DeliveredPosition.read(offsets)).isEmpty();
    }

    @Test
    void aRecordsPositionIsItsFurthestLsn() {
        assertThat(OffsetsFile.position(Map.of("lsn", 10L, "lsn_proc", 12L, "lsn_commit", 8L, "txId", 99L))).contains(new Lsn(12));
        assertThat(OffsetsFile.position(Map.of("ts_usec", 1L))).isEmpty();
    }
}
