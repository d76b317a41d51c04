package dev.tidemark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Running out of heap ends a command with one line naming the heap it had and how to give it more. */
class OutOfMemoryLineTest {

    @Test
    void anOutOfMemoryErrorAnywhereInTheCausesNamesTheHeapAndTheWayOn() {
        Throwable wrapped = new IllegalStateException("sink stopped", new OutOfMemoryError("Java heap space"));
        String line = TidemarkCommand.outOfMemory(wrapped, 288L << 20).orElseThrow();
        assertThat(line).startsWith("out of memory (Java heap space) with a heap of at most 288 MiB")
                .contains("nothing already applied is lost").contains("TIDEMARK_HEAP=1g").doesNotContain("\n");
    }

    @Test
    void otherFailuresKeepTheirOwnLine() {
        assertThat(TidemarkCommand.outOfMemory(new IllegalStateException("x", new RuntimeException("y")), 1L << 30)).isEmpty();
        assertThat(TidemarkCommand.oneLine(new IllegalStateException("slot gone"))).isEqualTo("slot gone");
    }
}
