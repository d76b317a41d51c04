package dev.tidemark.connector.debezium;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The one running capture of a pipeline per state folder: an OS file lock on {@code <stateDir>/<name>.capture.lock},
 * which holds the process id and host of the holder. {@link #heldBy} only looks (it creates nothing, so a refused start
 * leaves no state folder behind); {@link #claim} takes it once every check passed. A process killed with
 * {@code kill -9} releases it with its life.
 */
final class CaptureLock implements AutoCloseable {
    /** Lock files this JVM holds: opening and closing another channel on one would release its lock (POSIX locks). */
    private static final java.util.Set<Path> HELD_HERE = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Path file;
    private final HeldLock held;

    private CaptureLock(Path file, HeldLock held) {
        this.file = file;
        this.held = held;
    }

    static Path fileFor(Path stateDir, String pipeline) {
        return stateDir.resolve(pipeline + ".capture.lock");
    }

    /** Who holds the lock ("PID n on host h"), or empty when nobody does (or the file does not exist). */
    static Optional<String> heldBy(Path stateDir, String pipeline) {
        Path file = fileFor(stateDir, pipeline);
        if (HELD_HERE.contains(file.toAbsolutePath())) {
            return Optional.of("PID " + ProcessHandle.current().pid() + " on host " + host());
        }
        try {
            Optional<HeldLock> probe = HeldLock.tryTake(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            if (probe.isPresent()) {
                probe.get().close();
                return Optional.empty();
            }
            return Optional.of(holder(file));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Takes the lock (the state folder exists); refuses with the holder's line when another process has it. */
    static CaptureLock claim(Path stateDir, String pipeline) {
        Path file = fileFor(stateDir, pipeline);
        if (!HELD_HERE.add(file.toAbsolutePath())) {
            throw new CaptureRefusedException(alreadyRunning(pipeline, "PID " + ProcessHandle.current().pid() + " on host " + host(), file));
        }
        try {
            Optional<HeldLock> taken = HeldLock.tryTake(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            if (taken.isEmpty()) {
                HELD_HERE.remove(file.toAbsolutePath());
                throw new CaptureRefusedException(alreadyRunning(pipeline, holder(file), file));
            }
            FileChannel ch = taken.get().channel();
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + " host " + host() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
            ch.force(false);
            return new CaptureLock(file, taken.get());
        } catch (IOException e) {
            HELD_HERE.remove(file.toAbsolutePath());
            throw new IllegalStateException("cannot take " + file + ": " + e.getMessage(), e);
        }
    }

    /** The refusal when {@code holder} runs the pipeline already. */
    static String alreadyRunning(String pipeline, String holder, Path file) {
        return "pipeline " + pipeline + " is already running (" + holder + " holds " + file
                + "); nothing was changed: stop that process before starting this one";
    }

    private static String holder(Path file) throws IOException {
        String[] words = Files.readString(file, StandardCharsets.UTF_8).strip().split("\\s+");
        return words.length >= 4 && words[0].equals("pid") && words[2].equals("host") ? "PID " + words[1] + " on host " + words[3]
                : "another process";
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    @Override
    public void close() {
        try {
            held.close();
        } finally {
            HELD_HERE.remove(file.toAbsolutePath());
        }
    }
}
