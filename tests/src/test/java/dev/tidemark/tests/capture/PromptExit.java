package dev.tidemark.tests.capture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@code tidemark} child JVM that must end by itself promptly; one still alive after the bound has its threads
 * dumped ({@code jcmd PID Thread.print}, twice, 10 s apart) into {@code target/thread-dumps/} before it is killed, and
 * the failure names the dumps.
 */
final class PromptExit {
    private PromptExit() {
    }

    /** Runs {@code tidemark ARGS…} with its output into {@code log}; returns its exit code if it ended within {@code atMost}. */
    static int run(CaptureFixture f, Path log, Duration atMost, String label, String... args) throws Exception {
        Process p = f.spawn(log, args);
        if (p.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
            return p.exitValue();
        }
        List<Path> dumps = new ArrayList<>();
        dumps.add(threadDump(p, label + "a"));
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            dumps.add(threadDump(p, label + "b"));
        }
        p.destroyForcibly();
        throw new AssertionError(label + ": tidemark " + String.join(" ", args) + " did not end within " + atMost.toSeconds()
                + " s; thread dumps " + dumps + "\n" + Files.readString(log));
    }

    private static Path threadDump(Process p, String label) throws IOException, InterruptedException {
        Path out = Files.createDirectories(Path.of("target", "thread-dumps")).resolve("tidemark-" + p.pid() + "-" + label + ".txt");
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(p.pid()), "Thread.print")
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        jcmd.waitFor(30, TimeUnit.SECONDS);
        return out.toAbsolutePath();
    }
}
