package dev.tidemark.devenv;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs short-lived commands to completion and turns failures into {@link IllegalStateException}s that name the step
 * and carry the tail of the command's output (and optionally of a log file the command feeds).
 */
final class Processes {

    static final int TAIL_LINES = 20;
    private static final int MAX_TAIL_BYTES = 64 * 1024;

    private Processes() {
    }

    /** Runs {@code command}, returns its combined stdout/stderr; throws if it fails or outlives {@code timeout}. */
    static String run(String step, List<String> command, Path workDir, Duration timeout) {
        return run(step, command, workDir, timeout, null);
    }

    /**
     * Like {@link #run(String, List, Path, Duration)}; on failure the message also holds the tail of {@code log}
     * (e.g. a server log the command writes to). Output goes through a temporary file rather than a pipe, so a daemon
     * the command leaves behind cannot make this call hang.
     */
    static String run(String step, List<String> command, Path workDir, Duration timeout, Path log) {
        Path output = null;
        try {
            output = Files.createTempFile("tidemark-cmd-", ".out");
            ProcessBuilder builder = new ProcessBuilder(ownSession(command))
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            if (workDir != null) {
                builder.directory(workDir.toFile());
            }
            Process process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw failure(step, "timed out after " + timeout.toSeconds() + " s", command, read(output), log);
            }
            String text = read(output);
            if (process.exitValue() != 0) {
                throw failure(step, "failed with exit code " + process.exitValue(), command, text, log);
            }
            return text;
        } catch (IOException e) {
            throw new IllegalStateException(step + " failed: cannot run " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(step + " was interrupted", e);
        } finally {
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                } catch (IOException ignored) {
                    // a stray temp file is harmless
                }
            }
        }
    }

    /** Builds the exception thrown when a step fails. */
    static IllegalStateException failure(String step, String what, List<String> command, String output, Path log) {
        StringBuilder message = new StringBuilder(step).append(' ').append(what)
                .append(": ").append(String.join(" ", command));
        if (output != null && !output.isBlank()) {
            message.append("\n--- last lines of output ---\n").append(tail(output, TAIL_LINES));
        }
        if (log != null) {
            tail(log, TAIL_LINES).ifPresent(text ->
                    message.append("\n--- last lines of ").append(log).append(" ---\n").append(text));
        }
        return new IllegalStateException(message.toString());
    }

    /** The last {@code lines} lines of {@code text}. */
    static String tail(String text, int lines) {
        List<String> all = Arrays.asList(text.strip().split("\\R"));
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    /** The last {@code lines} lines of a file, or empty when it is missing, unreadable or blank. */
    static Optional<String> tail(Path file, int lines) {
        try {
            String text = read(file);
            return text.isBlank() ? Optional.empty() : Optional.of(tail(text, lines));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Finds an executable called {@code name} in one of the folders on PATH. */
    static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Arrays.stream(path.split(File.pathSeparator))
                .filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, name))
                .filter(candidate -> Files.isRegularFile(candidate) && Files.isExecutable(candidate))
                .findFirst();
    }

    /** Quotes {@code word} for a POSIX shell command line. */
    static String shellQuote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** Reads at most the last 64 KiB of {@code file}: enough for a tail, cheap even for a large log. */
    private static String read(Path file) throws IOException {
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            long size = channel.size();
            ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(size, MAX_TAIL_BYTES));
            channel.position(size - buffer.capacity());
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // keep reading until the buffer is full or the file ends
            }
            return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
        }
    }

    private static final java.nio.file.Path SETSID = java.nio.file.Path.of("/usr/bin/setsid");

    /**
     * Runs {@code command} in a session of its own (via {@code setsid} where it exists), so a Ctrl-C in the terminal
     * reaches only the tidemark JVM, which then stops the servers it started in order, instead of every server
     * dying at once in the middle of a shutdown.
     */
    static List<String> ownSession(List<String> command) {
        if (!Files.isExecutable(SETSID)) {
            return command;
        }
        List<String> wrapped = new java.util.ArrayList<>(command.size() + 1);
        wrapped.add(SETSID.toString());
        wrapped.addAll(command);
        return wrapped;
    }
}
