package dev.tidemark.connector.debezium;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * An OS file lock held on one lock file, with the channel that holds it. {@link #tryTake} takes it without waiting,
 * or reports it held (by another process, or by this JVM: POSIX locks are per process); {@link #close} releases it.
 * A process killed with {@code kill -9} releases its locks with its life.
 */
public final class HeldLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private HeldLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Opens {@code file} with {@code options} and takes its lock; empty, with the file closed again, when it is held.
     * An open that fails (a missing file without {@code CREATE}, say) throws.
     */
    public static Optional<HeldLock> tryTake(Path file, OpenOption... options) throws IOException {
        FileChannel ch = FileChannel.open(file, options);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException heldInThisJvm) {
            lock = null;
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        if (lock == null) {
            ch.close();
            return Optional.empty();
        }
        return Optional.of(new HeldLock(ch, lock));
    }

    /** The channel the lock is held through (to write the holder into the file). */
    FileChannel channel() {
        return channel;
    }

    @Override
    public void close() {
        try {
            if (lock.isValid()) {
                lock.release();
            }
            channel.close();
        } catch (IOException e) {
            // the lock goes with the process anyway
        }
    }
}
