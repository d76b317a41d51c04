package dev.tidemark.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM that loads lz4-java's and sqlite-jdbc's native libraries after {@link NativeLibraryFolder#useOwn()} leaves
 * nothing in its temporary folder once it exits, and the folder of one killed by SIGKILL is removed by the next start.
 */
@Timeout(120)
class NativeLibraryFolderTest {

    @Test
    void nothingIsLeftInTheTemporaryFolderAfterTheProcessExits(@TempDir Path tmp) throws Exception {
        Process child = child(tmp, "exit");
        assertThat(firstLine(child)).isEqualTo("LOADED");
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isZero();
        assertThat(files(tmp)).as("files left in java.io.tmpdir").isEmpty();
    }

    @Test
    void theFolderOfAKilledProcessIsRemovedByTheNextStart(@TempDir Path tmp) throws Exception {
        Process killed = child(tmp, "hang");
        assertThat(firstLine(killed)).isEqualTo("LOADED");
        killed.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        assertThat(files(tmp)).as("what SIGKILL left (the native libraries)").isNotEmpty();

        Process next = child(tmp, "exit");
        assertThat(firstLine(next)).isEqualTo("LOADED");
        assertThat(next.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(files(tmp)).as("files left after the next start exited").isEmpty();
    }

    @Test
    void aFolderBelongsToADeadProcessWhenItsPidIsGoneOrWasReused() {
        java.time.Instant start = java.time.Instant.ofEpochMilli(1_700_000_000_000L);
        String name = NativeLibraryFolder.name(42, start);
        assertThat(NativeLibraryFolder.ofDeadProcess(name, pid -> java.util.Optional.of(start))).as("running").isFalse();
        assertThat(NativeLibraryFolder.ofDeadProcess(name, pid -> java.util.Optional.empty())).as("gone").isTrue();
        assertThat(NativeLibraryFolder.ofDeadProcess(name, pid -> java.util.Optional.of(start.plusSeconds(5)))).as("pid reused").isTrue();
        assertThat(NativeLibraryFolder.ofDeadProcess("something-else", pid -> java.util.Optional.empty())).as("not ours").isFalse();
    }

    private static Process child(Path tmp, String mode) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), NativeLoadingChild.class.getName(), mode));
        return new ProcessBuilder(command).redirectError(tmp.resolveSibling(tmp.getFileName() + "-child.err").toFile()).start();
    }

    private static String firstLine(Process p) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        return line == null ? "(no output, exit " + waitExit(p) + ")" : line;
    }

    private static String waitExit(Process p) {
        try {
            return p.waitFor(30, TimeUnit.SECONDS) ? Integer.toString(p.exitValue()) : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** Every regular file below {@code dir}, relative to it. */
    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString().replace(File.separatorChar, '/')).toList();
        }
    }
}
