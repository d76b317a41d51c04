package dev.tidemark.connector.pipeline;

import dev.tidemark.connector.debezium.HeldLock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * A sink member id that is stable across restarts and unique among the processes of one pipeline on one host: the
 * host name plus the lowest free slot number, a slot being held by an OS file lock on
 * {@code <stateDir>/<pipeline>.sink-member-<n>.lock}. A process killed with {@code kill -9} releases its lock, so the
 * restarted process claims the same slot and so the same static {@code group.instance.id}, and takes its partitions
 * back at once; a second process started beside a running one gets the next slot. Processes on one host must share
 * the state directory for this (otherwise give each its own {@code --member-id}); processes on different hosts differ
 * by host name. {@link #close()} releases the slot.
 */
public final class MemberSlot implements AutoCloseable {
    static final int MAX_SLOTS = 64;

    private final String id;
    private final HeldLock lock;

    private MemberSlot(String id, HeldLock lock) {
        this.id = id;
        this.lock = lock;
    }

    /** Claims the lowest free slot of {@code pipeline} in {@code stateDir}. */
    public static MemberSlot claim(Path stateDir, String pipeline) {
        try {
            Files.createDirectories(stateDir);
            String host = hostName();
            for (int n = 0; n < MAX_SLOTS; n++) {
                Path file = stateDir.resolve(pipeline + ".sink-member-" + n + ".lock");
                Optional<HeldLock> lock = HeldLock.tryTake(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                if (lock.isPresent()) {
                    return new MemberSlot(host + "-" + n, lock.get());
                }
            }
            throw new IllegalStateException("all " + MAX_SLOTS + " sink member slots of pipeline " + pipeline + " in " + stateDir
                    + " are taken; give this process its own --member-id");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot claim a sink member slot in " + stateDir + ": " + e.getMessage(), e);
        }
    }

    /** Host name reduced to letters, digits, '.', '_' and '-'. */
    static String hostName() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                host = "host";
            }
        }
        String clean = host.replaceAll("[^A-Za-z0-9._-]", "_");
        return clean.isEmpty() ? "host" : clean;
    }

    /** The member id: {@code <host>-<slot>}. */
    public String id() {
        return id;
    }

    @Override
    public void close() {
        lock.close();
    }
}
