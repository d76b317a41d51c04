package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FirstPositionNoteTest {
    @TempDir
    Path dir;

    @Test
    void theNoteHoldsTheCommandUntilItIsCleared() throws Exception {
        Path offsets = dir.resolve("state").resolve("orders.offsets");
        assertThat(FirstPositionNote.read(offsets)).isEmpty();
        String command = PositionMarker.resnapshotCommand("p.yaml", "capture");
        FirstPositionNote.write(offsets, command);
        assertThat(FirstPositionNote.fileFor(offsets)).hasFileName("orders.offsets.no-first-position");
        assertThat(FirstPositionNote.read(offsets)).contains("tidemark capture --config p.yaml --resnapshot");
        FirstPositionNote.clear(offsets);
        assertThat(FirstPositionNote.read(offsets)).isEmpty();
    }
}
