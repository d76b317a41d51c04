package dev.tidemark.tests.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.devenv.LocalKafka;
import dev.tidemark.devenv.LocalPostgres;
import dev.tidemark.tests.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos harness: while {@link ChaosWorkload} commits a random mix into two tables, faults are injected at random
 * moments — {@code kill -9} of the whole pipeline, of capture or of the sink alone, of the Kafka broker (restarted on
 * the same data); {@code pg_ctl restart -m fast|immediate} of the source; {@code pg_terminate_backend} of the walsender;
 * the target locked by another writer. The pipeline runs as child processes kept alive like a supervisor would (see
 * {@link PipelineProcesses}). After the last fault the writer stops, the pipeline drains, and both reconcile
 * ({@code tidemark reconcile}) and an independent row-by-row comparison ({@link RowImages}) must find 0 missing,
 * 0 surplus and 0 changed rows.
 *
 * <p>Short form in {@code mvn verify} (8 faults, each kind once, at most a few minutes); the long form is
 * {@code bench/chaos.sh}: {@code -Dtidemark.chaos.faults=N -Dtidemark.chaos.min-kills=K
 * -Dtidemark.chaos.lock-seconds=30 -Dtidemark.chaos.big-max=30000 -Dtidemark.chaos.rate=ROWS_PER_S -Dtidemark.chaos.seed=S}. The fault table is printed
 * and written to {@code target/chaos-report.md}.
 */
class ChaosIT {
    private static final String DB = "chaos";

    @TempDir
    Path dir;

    private final int faults = Integer.getInteger("tidemark.chaos.faults", Fault.values().length);
    private final int minKills = Integer.getInteger("tidemark.chaos.min-kills", 0);
    private final int lockSeconds = Integer.getInteger("tidemark.chaos.lock-seconds", 10);
    private final int bigMax = Integer.getInteger("tidemark.chaos.big-max", 5_000);
    private final int rate = Integer.getInteger("tidemark.chaos.rate", 2_000);
    private final long seed = Long.getLong("tidemark.chaos.seed", new Random().nextLong());

    @Test
    void everyChangeArrivesThroughKillsRestartsAndLocks() throws Exception {
        System.out.println("ChaosIT: seed " + seed + " (rerun with -Dtidemark.chaos.seed=" + seed + ")");
        Random random = new Random(seed);
        Path pgDir = Files.createTempDirectory("tidemark-chaos-pg-");
        Path kafkaDir = Files.createTempDirectory("tidemark-chaos-kafka-");
        Path logs = Files.createDirectories(dir.resolve("logs"));
        try (LocalPostgres pg = LocalPostgres.start(pgDir); LocalKafka kafka = LocalKafka.start(kafkaDir)) {
            try (Connection admin = DriverManager.getConnection(pg.jdbcUrl("postgres"), pg.user(), "");
                 Statement s = admin.createStatement()) {
                s.execute("CREATE DATABASE " + DB);
            }
            try (Connection c = DriverManager.getConnection(pg.jdbcUrl(DB), pg.user(), "")) {
                ChaosWorkload.createSchema(c);
            }
            Path target = dir.resolve("target.db");
            Path config = writePipeline(pg, kafka, target);
            ChaosWorkload workload = new ChaosWorkload(pg.jdbcUrl(DB), pg.user(), random.nextLong(), 1_500, bigMax, rate);
            Thread writer = new Thread(workload, "chaos-writer");
            List<Injected> injected = new ArrayList<>();
            try (PipelineProcesses pipeline = new PipelineProcesses(config, logs, random)) {
                pipeline.start();
                // faults begin once the initial snapshot is in the target: a capture killed during its first
                // snapshot refuses to restart by design (it would re-snapshot without removing deleted rows)
                List<RowImages.Diff> initial = drain(pipeline, pg, target);
                assertThat(initial).as("initial snapshot applied\n" + pipeline.tails()).allMatch(RowImages.Diff::equal);
                writer.start();
                for (Fault fault : schedule(random)) {
                    superviseFor(pipeline, 3_000 + random.nextInt(5_000));
                    int exitsBefore = pipeline.exits().size();
                    long t0 = System.nanoTime();
                    inject(fault, pipeline, pg, kafka, target);
                    superviseFor(pipeline, 1_000);
                    injected.add(new Injected(fault, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), exitsBefore));
                    System.out.printf(Locale.ROOT, "ChaosIT: %-22s injected (%d commits, %d rows so far)%n", fault,
                            workload.commits(), workload.rows());
                }
                superviseFor(pipeline, 3_000);
                workload.stop();
                writer.join(TimeUnit.MINUTES.toMillis(2));
                List<RowImages.Diff> drained = drain(pipeline, pg, target);
                pipeline.stopGracefully();
                List<RowImages.Diff> finalDiff = compare(pg, target);
                Reconcile reconcile = reconcile(config, logs);
                String report = report(injected, pipeline, workload, drained, finalDiff, reconcile);
                System.out.println(report);
                Files.writeString(Path.of("target", "chaos-report.md"), report);
                assertThat(finalDiff).as("independent row-by-row comparison after the drain\n" + pipeline.tails())
                        .allMatch(RowImages.Diff::equal);
                assertThat(reconcile.exitCode()).as("tidemark reconcile after the drain:\n" + reconcile.output()).isZero();
                assertThat(injected.stream().filter(i -> i.fault().isKill()).count()).isGreaterThanOrEqualTo(minKills);
            } finally {
                workload.stop();
            }
        }
    }

    /** One injected fault: which, how long injecting took, and how many self-exits had been seen before it. */
    private record Injected(Fault fault, long millis, int exitsBefore) {
    }

    private record Reconcile(int exitCode, String output) {
    }

    /** Every kind once (shuffled), then random kinds until {@code faults} in all and at least {@code minKills} kills. */
    private List<Fault> schedule(Random random) {
        List<Fault> out = new ArrayList<>(List.of(Fault.values()));
        Collections.shuffle(out, random);
        List<Fault> kills = List.of(Fault.KILL_SIDECAR, Fault.KILL_CAPTURE, Fault.KILL_SINK, Fault.KILL_BROKER);
        while (out.size() < faults || out.stream().filter(Fault::isKill).count() < minKills) {
            // two thirds kills: the long form is about surviving kill -9
            out.add(random.nextInt(3) < 2 ? kills.get(random.nextInt(kills.size()))
                    : Fault.values()[random.nextInt(Fault.values().length)]);
        }
        return out;
    }

    private void inject(Fault fault, PipelineProcesses pipeline, LocalPostgres pg, LocalKafka kafka, Path target)
            throws IOException, SQLException {
        switch (fault) {
            case KILL_SIDECAR -> pipeline.killAll();
            case KILL_CAPTURE -> pipeline.kill(PipelineProcesses.Role.CAPTURE, true);
            case KILL_SINK -> pipeline.kill(PipelineProcesses.Role.SINK, true);
            case KILL_BROKER -> kafka.crashAndRestart();
            case PG_RESTART_FAST -> pg.restart(false);
            case PG_RESTART_IMMEDIATE -> pg.restart(true);
            case TERMINATE_WALSENDER -> terminateWalsender(pg);
            case LOCK_TARGET -> lockTarget(pipeline, target);
        }
    }

    private static void terminateWalsender(LocalPostgres pg) throws SQLException {
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl(DB), pg.user(), "");
             PreparedStatement ps = c.prepareStatement("SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots "
                     + "WHERE slot_name = ? AND active_pid IS NOT NULL")) {
            ps.setString(1, "tidemark_chaos");
            ps.executeQuery().close();
        }
    }

    /** Holds SQLite's write lock for {@code lockSeconds} while the pipeline keeps running. */
    private void lockTarget(PipelineProcesses pipeline, Path target) throws SQLException, IOException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + target); Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout = 60000");
            s.execute("BEGIN EXCLUSIVE");
            superviseFor(pipeline, lockSeconds * 1_000L);
            s.execute("ROLLBACK");
        }
    }

    private static void superviseFor(PipelineProcesses pipeline, long millis) throws IOException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            pipeline.superviseOnce();
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
    }

    /** Keeps the pipeline running until the target equals the source (or 5 minutes pass); returns the last check. */
    private static List<RowImages.Diff> drain(PipelineProcesses pipeline, LocalPostgres pg, Path target) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        List<RowImages.Diff> last = List.of();
        while (System.nanoTime() < deadline) {
            superviseFor(pipeline, 2_000);
            try {
                last = compare(pg, target);
            } catch (SQLException e) {
                continue; // target busy: look again
            }
            if (last.stream().allMatch(RowImages.Diff::equal)) {
                return last;
            }
        }
        return last;
    }

    private static List<RowImages.Diff> compare(LocalPostgres pg, Path target) throws SQLException {
        try (Connection s = DriverManager.getConnection(pg.jdbcUrl(DB), pg.user(), "");
             Connection t = DriverManager.getConnection("jdbc:sqlite:" + target)) {
            return RowImages.compare(s, t);
        }
    }

    private static Reconcile reconcile(Path config, Path logs) throws IOException, InterruptedException {
        Path out = logs.resolve("reconcile.log");
        Process p = new ProcessBuilder(ChildJvm.tidemark(List.of("-Xmx512m"),
                "reconcile", "--config", config.toString(), "--settle", "1s", "--no-progress"))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
        }
        return new Reconcile(p.exitValue(), Files.readString(out));
    }

    private Path writePipeline(LocalPostgres pg, LocalKafka kafka, Path target) throws IOException {
        Path yaml = dir.resolve("pipeline.yaml");
        Files.writeString(yaml, String.join("\n",
                "name: chaos",
                "source:",
                "  url: " + pg.jdbcUrl(DB),
                "  user: " + pg.user(),
                "  tables: [public.items, public.lines]",
                "  slot: tidemark_chaos",
                "  pollIntervalMs: 10",
                "kafka:",
                "  bootstrapServers: " + kafka.bootstrapServers(),
                "  topicPrefix: chaos",
                "  partitions: 3",
                "target:",
                "  url: jdbc:sqlite:" + target,
                "  batchSize: 1000",
                "stateDir: " + dir.resolve("state"),
                ""));
        return yaml;
    }

    private String report(List<Injected> injected, PipelineProcesses pipeline, ChaosWorkload workload,
                          List<RowImages.Diff> drained, List<RowImages.Diff> finalDiff, Reconcile reconcile) {
        List<PipelineProcesses.Exit> exits = pipeline.exits();
        Map<Fault, int[]> counts = new EnumMap<>(Fault.class);
        Map<Fault, List<String>> after = new EnumMap<>(Fault.class);
        for (int i = 0; i < injected.size(); i++) {
            Injected in = injected.get(i);
            int to = i + 1 < injected.size() ? injected.get(i + 1).exitsBefore() : exits.size();
            counts.computeIfAbsent(in.fault(), f -> new int[1])[0]++;
            for (PipelineProcesses.Exit e : exits.subList(in.exitsBefore(), to)) {
                after.computeIfAbsent(in.fault(), f -> new ArrayList<>())
                        .add(e.role().name().toLowerCase(Locale.ROOT) + " exit " + e.code() + ": " + e.lastLine());
            }
        }
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%nChaos run: seed %d, %d faults (%d kills), workload %d commits / %d rows "
                        + "(%d writer reconnects), pipeline starts %s%n%n", seed, injected.size(),
                injected.stream().filter(i -> i.fault().isKill()).count(), workload.commits(), workload.rows(),
                workload.failures(), pipeline.starts()));
        b.append("| fault | count | processes that stopped by themselves afterwards (exit code: last line) |\n|---|---:|---|\n");
        for (Map.Entry<Fault, int[]> e : counts.entrySet()) {
            List<String> lines = after.getOrDefault(e.getKey(), List.of());
            b.append("| ").append(e.getKey().description()).append(" | ").append(e.getValue()[0]).append(" | ")
                    .append(lines.isEmpty() ? "none" : lines.stream().distinct().limit(3).collect(Collectors.joining("; "))
                            + (lines.size() > 3 ? " (" + lines.size() + " in all)" : ""))
                    .append(" |\n");
        }
        b.append("\nAfter the drain (independent comparison): ").append(drained).append('\n');
        b.append("After a graceful stop (independent comparison): ").append(finalDiff).append('\n');
        b.append("tidemark reconcile: exit ").append(reconcile.exitCode()).append('\n');
        reconcile.output().lines().filter(l -> l.contains("→") || l.contains("EQUAL") || l.contains("DIFFERENT"))
                .limit(6).forEach(l -> b.append("  ").append(l).append('\n'));
        return b.toString();
    }
}
