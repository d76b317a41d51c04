package dev.tidemark.devenv;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Which process owns a temporary folder of {@link EmbeddedEnvironment}: its pid and start instant, written into the
 * folder as {@value #FILE} when the folder is made. A folder is <em>left over</em> when no process with that pid runs,
 * or the one that does started at another instant (the pid was reused). Folders without the file are never judged
 * left over. {@link #leftOver} is pure.
 *
 * @param pid     the owner's process id
 * @param started the owner's start instant as the operating system reports it (null when unknown)
 */
record FolderOwner(long pid, Instant started) {
    static final String FILE = "tidemark-owner";

    static FolderOwner current() {
        ProcessHandle self = ProcessHandle.current();
        return new FolderOwner(self.pid(), self.info().startInstant().orElse(null));
    }

    void writeInto(Path folder) throws IOException {
        Files.writeString(folder.resolve(FILE), pid + " " + (started == null ? "-" : started.toString()) + "\n");
    }

    /** The owner recorded in {@code folder}, or empty when it has none (or an unreadable one). */
    static Optional<FolderOwner> readFrom(Path folder) {
        try {
            String[] parts = Files.readString(folder.resolve(FILE)).trim().split(" ");
            return Optional.of(new FolderOwner(Long.parseLong(parts[0]), parts.length < 2 || parts[1].equals("-") ? null : Instant.parse(parts[1])));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Pure: whether the folder's owner is gone.
     *
     * @param pidRuns      whether a process with {@link #pid} runs now
     * @param runningStart that process's start instant, when the system reports it
     */
    boolean leftOver(boolean pidRuns, Optional<Instant> runningStart) {
        if (!pidRuns) {
            return true;
        }
        return started != null && runningStart.isPresent() && !runningStart.get().equals(started);
    }

    /** {@link #leftOver} asked of this machine's process table. */
    boolean isLeftOver() {
        Optional<ProcessHandle> h = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        return leftOver(h.isPresent(), h.flatMap(p -> p.info().startInstant()));
    }
}
