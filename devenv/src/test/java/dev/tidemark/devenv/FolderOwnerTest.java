package dev.tidemark.devenv;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FolderOwnerTest {
    static final Instant T = Instant.parse("2026-11-30T18:00:00.120Z");

    @Test
    void aFolderIsLeftOverWhenItsOwnerIsGoneOrItsPidWasReused() {
        FolderOwner owner = new FolderOwner(4242, T);
        assertThat(owner.leftOver(false, Optional.empty())).as("no process with the pid").isTrue();
        assertThat(owner.leftOver(true, Optional.of(T))).as("the owner still runs").isFalse();
        assertThat(owner.leftOver(true, Optional.of(T.plusSeconds(60)))).as("pid reused by a later process").isTrue();
        assertThat(owner.leftOver(true, Optional.empty())).as("a process runs, start unknown: keep").isFalse();
        assertThat(new FolderOwner(4242, null).leftOver(true, Optional.of(T))).as("owner start unknown: keep").isFalse();
    }

    @Test
    void theOwnerRoundTripsThroughItsFileAndThisProcessIsNotLeftOver(@TempDir Path dir) throws Exception {
        FolderOwner me = FolderOwner.current();
        me.writeInto(dir);
        assertThat(FolderOwner.readFrom(dir)).hasValue(me);
        assertThat(me.isLeftOver()).isFalse();
        Files.writeString(dir.resolve(FolderOwner.FILE), "not a pid");
        assertThat(FolderOwner.readFrom(dir)).isEmpty();
    }
}
