package dev.tidemark.devenv;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servers {@code tidemark demo} and {@code tidemark compare} run against when none are given: a throwaway
 * {@link LocalPostgres} with logical decoding and, unless a Kafka is named, a single-node {@link LocalKafka}, both
 * under one temporary folder (Kafka starts while PostgreSQL does). {@link #close()} stops both and deletes the folder;
 * each server's watchdog also stops it should this JVM die without closing. Not thread-safe; close is idempotent.
 */
public final class EmbeddedEnvironment implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedEnvironment.class);

    private final Path work;
    private final LocalPostgres postgres;
    private final LocalKafka kafka;
    private final String bootstrap;
    private boolean closed;

    private EmbeddedEnvironment(Path work, LocalPostgres postgres, LocalKafka kafka, String bootstrap) {
        this.work = work;
        this.postgres = postgres;
        this.kafka = kafka;
        this.bootstrap = bootstrap;
    }

    /**
     * Starts PostgreSQL, and Kafka unless {@code kafkaBootstrap} names one, under a new temporary folder named
     * {@code prefix…}. On failure stops what started, deletes the folder and throws.
     */
    public static EmbeddedEnvironment start(String prefix, String kafkaBootstrap) throws IOException {
        // traversable by the unprivileged account PostgreSQL runs as when this runs as root
        Path work = Files.createTempDirectory(prefix,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
        CompletableFuture<LocalKafka> kafka = kafkaBootstrap != null ? CompletableFuture.completedFuture(null)
                : CompletableFuture.supplyAsync(() -> LocalKafka.start(work.resolve("kafka")));
        LocalPostgres pg = null;
        try {
            pg = LocalPostgres.start(work.resolve("postgres"));
            LocalKafka k = kafka.join();
            return new EmbeddedEnvironment(work, pg, k, k == null ? kafkaBootstrap : k.bootstrapServers());
        } catch (RuntimeException e) {
            RuntimeException cause = e instanceof CompletionException && e.getCause() instanceof RuntimeException r ? r : e;
            try {
                LocalKafka k = kafka.join();
                if (k != null) {
                    k.close();
                }
            } catch (RuntimeException ignored) {
                // the failure being thrown says enough
            }
            if (pg != null) {
                pg.close();
            }
            deleteQuietly(work);
            throw cause;
        }
    }

    public LocalPostgres postgres() {
        return postgres;
    }

    public String kafkaBootstrap() {
        return bootstrap;
    }

    /** The temporary folder; deleted by {@link #close()}. */
    public Path workDir() {
        return work;
    }

    /** What runs where, one line per server. */
    public List<String> describe() {
        return List.of(
                String.format("PostgreSQL %s with wal_level=logical on 127.0.0.1:%d (started in %.1f s)",
                        postgres.version(), postgres.port(), postgres.startupMillis() / 1000.0),
                kafka == null ? "Kafka at " + bootstrap + " (given with --kafka)"
                        : String.format("Kafka (KRaft, single node) on %s (started in %.1f s)", bootstrap, kafka.startupMillis() / 1000.0));
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (kafka != null) {
            kafka.close();
        }
        postgres.close();
        deleteQuietly(work);
    }

    private static void deleteQuietly(Path dir) {
        try {
            Directories.deleteRecursively(dir);
        } catch (IOException | RuntimeException e) {
            log.warn("could not delete {}: {}", dir, e.toString());
        }
    }
}
