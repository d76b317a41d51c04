package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A lock file taken once: a second take is refused while it is held, and succeeds once it is released. */
class HeldLockTest {
    @TempDir
    Path dir;

    @Test
    void aHeldLockRefusesASecondTakeUntilClosed() throws Exception {
        Path file = dir.resolve("a.lock");
        Optional<HeldLock> first = HeldLock.tryTake(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        assertThat(first).isPresent();
        assertThat(first.get().channel().isOpen()).isTrue();
        assertThat(HeldLock.tryTake(file, StandardOpenOption.WRITE)).as("held by this JVM").isEmpty();
        first.get().close();
        assertThat(first.get().channel().isOpen()).as("closed with the lock").isFalse();
        try (HeldLock again = HeldLock.tryTake(file, StandardOpenOption.WRITE).orElseThrow()) {
            assertThat(again.channel().isOpen()).isTrue();
        }
    }

    @Test
    void aMissingFileWithoutCreateThrows() {
        assertThatThrownBy(() -> HeldLock.tryTake(dir.resolve("missing.lock"), StandardOpenOption.WRITE))
                .isInstanceOf(NoSuchFileException.class);
        assertThat(dir.resolve("missing.lock")).doesNotExist();
    }
}
