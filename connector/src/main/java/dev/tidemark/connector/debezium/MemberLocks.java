package dev.tidemark.connector.debezium;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/** Whether a sink member's lock file ({@code <name>.sink-member-<n>.lock}) is held by a running sink. */
final class MemberLocks {
    private MemberLocks() {
    }

    /** True when no process holds the lock (it is taken and released at once to find out), or the file is gone. */
    static boolean free(Path lockFile) {
        try {
            Optional<HeldLock> probe = HeldLock.tryTake(lockFile, StandardOpenOption.WRITE);
            probe.ifPresent(HeldLock::close);
            return probe.isPresent();
        } catch (IOException e) {
            return true; // gone or unreadable: nothing holds it
        }
    }
}
