package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One running capture per state folder: who holds the lock, a second claim refused, nothing created by looking. */
class CaptureLockTest {
    @TempDir
    Path dir;

    @Test
    void aHeldLockNamesItsHolderAndRefusesASecondClaim() {
        String me = "PID " + ProcessHandle.current().pid() + " on host ";
        try (CaptureLock lock = CaptureLock.claim(dir, "orders")) {
            assertThat(CaptureLock.heldBy(dir, "orders")).hasValueSatisfying(h -> assertThat(h).startsWith(me));
            assertThatThrownBy(() -> CaptureLock.claim(dir, "orders")).isInstanceOf(CaptureRefusedException.class)
                    .hasMessageStartingWith("pipeline orders is already running (" + me)
                    .hasMessageEndingWith(" holds " + dir.resolve("orders.capture.lock")
                            + "); nothing was changed: stop that process before starting this one");
            assertThat(CaptureLock.heldBy(dir, "orders")).as("still held after the refused claim").isPresent();
        }
        assertThat(CaptureLock.heldBy(dir, "orders")).as("released").isEmpty();
        try (CaptureLock again = CaptureLock.claim(dir, "orders")) {
            assertThat(CaptureLock.heldBy(dir, "orders")).isPresent();
        }
    }

    @Test
    void lookingCreatesNothing() {
        Path missing = dir.resolve("state");
        assertThat(CaptureLock.heldBy(missing, "orders")).isEmpty();
        assertThat(missing).doesNotExist();
        assertThat(CaptureLock.heldBy(dir, "orders")).isEmpty();
        assertThat(Files.exists(dir.resolve("orders.capture.lock"))).isFalse();
    }
}
