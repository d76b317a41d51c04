package dev.tidemark.connector.debezium;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Whether a sink member's lock file ({@code <name>.sink-member-<n>.lock}) is held by a running sink. */
final class MemberLocks {
    private MemberLocks() {
    }

    /** True when no process holds the lock (it is taken and released at once to find out), or the file is gone. */
    static boolean free(Path lockFile) {
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock lock = ch.tryLock();
            if (lock == null) {
                return false;
            }
            lock.release();
            return true;
        } catch (OverlappingFileLockException e) {
            return false; // held by this JVM
        } catch (IOException e) {
            return true; // gone or unreadable: nothing holds it
        }
    }
}
