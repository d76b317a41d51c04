package dev.tidemark.connector.cli;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.connector.demo.DemoWorkload;
import dev.tidemark.connector.local.LocalKafka;
import dev.tidemark.connector.local.LocalPostgres;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.connector.reconcile.ComparisonResult;
import dev.tidemark.connector.reconcile.TableComparison;
import dev.tidemark.sink.event.TableId;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The embedded default: a throwaway PostgreSQL with logical decoding and a single-node Kafka, the CDC pipeline into
 * a SQLite file, live inserts, updates and deletes, and a source-vs-target check by key and checksum. Everything it
 * started is stopped and its temporary folders removed, also on Ctrl-C; the SQLite file stays.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the embedded demo: throwaway PostgreSQL + Kafka, CDC into a SQLite file, then prove source = target.")
final class DemoCommand implements Callable<Integer> {
    private static final TableId TABLE = new TableId("public", "orders");
    private static final Duration CATCH_UP = Duration.ofSeconds(90);

    @Option(names = "--kafka", paramLabel = "BOOTSTRAP", description = "use this Kafka instead of starting one")
    String kafka;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "tidemark-demo", description = "where the SQLite target is written (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--rows", defaultValue = "500", description = "rows in the initial snapshot (default: ${DEFAULT-VALUE})")
    int rows;

    @Option(names = "--rounds", defaultValue = "3", description = "rounds of live changes (default: ${DEFAULT-VALUE})")
    int rounds;

    private final PrintStream say = System.out;
    private volatile boolean interruptible = true;
    private Termination termination;

    @Override
    public Integer call() throws Exception {
        try {
            return runDemo();
        } catch (Exception e) {
            if (termination != null && termination.isRequested()) {
                say.println("demo interrupted: every server it started is stopped and its temporary folders are removed");
                return 130;
            }
            throw e;
        }
    }

    private Integer runDemo() throws Exception {
        Thread main = Thread.currentThread();
        // Ctrl-C also cuts a server start-up or a wait short; never the shutdown that follows it
        termination = Termination.install(() -> {
            if (interruptible) {
                main.interrupt();
            }
        });
        long t0 = System.nanoTime();
        Path outDir = out.toAbsolutePath().normalize();
        Files.createDirectories(outDir);
        Path targetFile = outDir.resolve("orders.db");
        for (String suffix : List.of("", "-wal", "-shm")) {
            Files.deleteIfExists(Path.of(targetFile + suffix));
        }
        // traversable by the unprivileged account PostgreSQL runs as when the demo runs as root
        Path work = Files.createTempDirectory("tidemark-demo-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
        say.println("Tidemark demo: PostgreSQL → Debezium (pgoutput) → Kafka → SQLite, then a key+checksum proof");
        try (LocalPostgres pg = startPostgres(work);
             LocalKafka broker = kafka == null ? startKafka(work) : null) {
            say.printf("  PostgreSQL %s with wal_level=logical on 127.0.0.1:%d (started in %.1f s)%n",
                    pg.version(), pg.port(), pg.startupMillis() / 1000.0);
            String bootstrap = broker == null ? kafka : broker.bootstrapServers();
            say.printf(broker == null ? "  Kafka at %s (given with --kafka)%n" : "  Kafka (KRaft, single node) on %s (started in %.1f s)%n",
                    bootstrap, broker == null ? 0.0 : broker.startupMillis() / 1000.0);
            checkAbort();
            String sourceUrl = pg.jdbcUrl("postgres");
            String targetUrl = "jdbc:sqlite:" + targetFile;
            try (Connection src = DriverManager.getConnection(sourceUrl, pg.user(), "")) {
                DemoWorkload workload = new DemoWorkload(42);
                DemoWorkload.createTable(src);
                workload.insert(src, rows);
                say.printf("  created public.orders with %d rows (numeric(12,2), timestamptz(6), Unicode text, NULLs)%n", rows);

                PipelineConfig cfg = new PipelineConfig("demo",
                        new SourceConfig(sourceUrl, pg.user(), Secret.empty(), "tidemark_demo", "tidemark_demo",
                                List.of(TABLE), true, Duration.ofMillis(10)),
                        new KafkaConfig(bootstrap, "demo" + Long.toHexString(System.nanoTime() & 0xffffff), 3, (short) 1, Map.of()),
                        new TargetConfig(targetUrl, null, Secret.empty(), 2000, SinkOptions.DEFAULT_POSITION_COLUMN, false),
                        work.resolve("state"));
                try (Sidecar sidecar = Sidecar.start(cfg, true, true, new ReplayFrom.Stored());
                     Connection tgt = DriverManager.getConnection(targetUrl)) {
                    long s0 = System.nanoTime();
                    ComparisonResult r = awaitEqual(sidecar, src, tgt);
                    say.printf("  snapshot: %d rows captured → topic %s (3 partitions) → %s in %.1f s%n",
                            r.targetRows(), cfg.topicFor(TABLE), targetFile.getFileName(), (System.nanoTime() - s0) / 1e9);
                    for (int round = 1; round <= rounds; round++) {
                        checkAbort();
                        int ins = workload.insert(src, 40);
                        int upd = workload.update(src, 30);
                        int del = workload.delete(src, 20);
                        long c0 = System.nanoTime();
                        r = awaitEqual(sidecar, src, tgt);
                        say.printf("  round %d: %d inserts, %d updates, %d deletes committed → target equal after %d ms%n",
                                round, ins, upd, del, (System.nanoTime() - c0) / 1_000_000);
                    }
                    say.println("  source vs target by primary key and row checksum:");
                    say.println("    " + r.summary());
                    say.printf("  events captured: %d, applied: %d%n", sidecar.capture().orElseThrow().eventsSent(),
                            sidecar.sink().orElseThrow().eventsApplied());
                    say.println("  stopping capture and sink (offsets committed)…");
                    sidecar.close();
                    say.printf("done in %.1f s. Target: %s (table orders; offsets in %s)%n",
                            (System.nanoTime() - t0) / 1e9, targetFile, SinkOptions.OFFSETS_TABLE);
                    return r.equal() ? ExitCodes.OK : ExitCodes.DIFFERENT;
                } finally {
                    stopInterrupting();
                }
            } finally {
                stopInterrupting();
            }
        } finally {
            stopInterrupting();
            deleteTree(work);
        }
    }

    private LocalPostgres startPostgres(Path work) {
        try {
            return LocalPostgres.start(work.resolve("postgres"));
        } catch (RuntimeException e) {
            stopInterrupting();
            throw e;
        }
    }

    private LocalKafka startKafka(Path work) {
        try {
            return LocalKafka.start(work.resolve("kafka"));
        } catch (RuntimeException e) {
            stopInterrupting(); // the PostgreSQL started before must be stopped without interruption
            throw e;
        }
    }

    /** From here on everything is cleanup: clear a pending interrupt so stopping servers is not cut short. */
    private void stopInterrupting() {
        interruptible = false;
        Thread.interrupted();
        if (termination.isRequested()) {
            say.println("  interrupted: stopping everything the demo started…");
        }
    }

    private ComparisonResult awaitEqual(Sidecar sidecar, Connection src, Connection tgt) throws Exception {
        long deadline = System.nanoTime() + CATCH_UP.toNanos();
        ComparisonResult last = null;
        while (System.nanoTime() < deadline) {
            checkAbort();
            if (sidecar.failure().isPresent()) {
                throw new IllegalStateException("pipeline failed: " + sidecar.failure().get().getMessage(), sidecar.failure().get());
            }
            try {
                last = TableComparison.compare(src, TABLE, List.of("id"), tgt, "orders", TableComparison.QuoteStyle.DOUBLE);
                if (last.equal()) {
                    return last;
                }
            } catch (SQLException e) {
                // the target table does not exist until the first batch lands
            }
            termination.awaitRequest(100);
        }
        throw new IllegalStateException("target did not catch up within " + CATCH_UP.toSeconds() + " s: "
                + (last == null ? "target table not created" : last.summary()));
    }

    private void checkAbort() {
        if (termination.isRequested()) {
            throw new IllegalStateException("interrupted: stopping everything the demo started");
        }
    }

    /** Deletes the folder; a server that just died may still be removing its own files, so walk again if needed. */
    private static void deleteTree(Path dir) throws IOException {
        for (int attempt = 1; Files.exists(dir); attempt++) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                if (attempt >= 5) {
                    throw new IOException("cannot remove " + dir + ": " + e.getMessage(), e);
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
