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
    private Termination termination;

    @Override
    public Integer call() throws Exception {
        termination = Termination.install();
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
        try (LocalPostgres pg = LocalPostgres.start(work.resolve("postgres"));
             LocalKafka broker = kafka == null ? LocalKafka.start(work.resolve("kafka")) : null) {
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
                }
            }
        } finally {
            deleteTree(work);
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

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
