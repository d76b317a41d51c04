package dev.tidemark.devenv;

import dev.tidemark.process.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servers {@code tidemark demo} and {@code tidemark compare} run against when none are given: a throwaway
 * {@link LocalPostgres} with logical decoding and, unless a Kafka is named, a single-node {@link LocalKafka}, both
 * under one temporary folder (Kafka starts while PostgreSQL does). {@link #close()} stops both and deletes the folder;
 * each server's watchdog also stops it should this JVM die without closing, and the next start removes the folder
 * then left behind. Not thread-safe; close is idempotent.
 */
public final class EmbeddedEnvironment implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedEnvironment.class);

    private final Path work;
    private final LocalPostgres postgres;
    private final LocalKafka kafka;
    private final String bootstrap;
    private final List<String> removed;
    private boolean closed;

    private EmbeddedEnvironment(Path work, LocalPostgres postgres, LocalKafka kafka, String bootstrap, List<String> removed) {
        this.work = work;
        this.removed = removed;
        this.postgres = postgres;
        this.kafka = kafka;
        this.bootstrap = bootstrap;
    }

    /**
     * Starts PostgreSQL, and Kafka unless {@code kafkaBootstrap} names one, under a new temporary folder named
     * {@code prefix…}. First removes the folders {@code prefix…} of earlier runs whose process is gone (killed with
     * {@code kill -9}, say: see {@link FolderOwner}). On failure stops what started, deletes the folder and throws.
     */
    public static EmbeddedEnvironment start(String prefix, String kafkaBootstrap) throws IOException {
        List<String> removed = removeLeftovers(prefix);
        Path work = ServerFolders.newTemporary(null, prefix);
        FolderOwner.current().writeInto(work);
        CompletableFuture<LocalKafka> kafka = kafkaBootstrap != null ? CompletableFuture.completedFuture(null)
                : CompletableFuture.supplyAsync(() -> LocalKafka.start(work.resolve("kafka")));
        LocalPostgres pg = null;
        try {
            pg = LocalPostgres.start(work.resolve("postgres"));
            LocalKafka k = kafka.join();
            return new EmbeddedEnvironment(work, pg, k, k == null ? kafkaBootstrap : k.bootstrapServers(), removed);
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

    /**
     * The temporary folders {@code prefix…} of earlier runs whose owner process is gone, deleted; one line per folder
     * for the narration. Folders of running processes and folders without an owner file are kept.
     */
    private static List<String> removeLeftovers(String prefix) {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        List<String> lines = new ArrayList<>();
        try (Stream<Path> folders = Files.list(tmp)) {
            for (Path f : folders.filter(f -> f.getFileName().toString().startsWith(prefix) && Files.isDirectory(f)).toList()) {
                Optional<FolderOwner> owner = FolderOwner.readFrom(f);
                if (owner.isPresent() && owner.get().isLeftOver()) {
                    deleteQuietly(f);
                    if (!Files.exists(f)) {
                        lines.add("removed " + f + ", left by an earlier run (process " + owner.get().pid() + ") that did not stop");
                    }
                }
            }
        } catch (IOException e) {
            log.warn("could not look for left-over folders in {}: {}", tmp, e.toString());
        }
        return List.copyOf(lines);
    }

    /** What runs where, one line per server, after a line per left-over folder removed at start. */
    public List<String> describe() {
        List<String> lines = new ArrayList<>(removed);
        lines.addAll(List.of(
                String.format("PostgreSQL %s with wal_level=logical on 127.0.0.1:%d (started in %.1f s)",
                        postgres.version(), postgres.port(), postgres.startupMillis() / 1000.0),
                kafka == null ? "Kafka at " + bootstrap + " (given with --kafka)"
                        : String.format("Kafka (KRaft, single node) on %s (started in %.1f s)", bootstrap, kafka.startupMillis() / 1000.0)));
        return lines;
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
