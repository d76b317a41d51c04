package dev.tidemark.bench;

import dev.tidemark.devenv.LocalKafka;
import dev.tidemark.devenv.LocalPostgres;
import dev.tidemark.devenv.ServerFolders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The latency benchmark ({@code bench/latency.sh}, issue 13): {@code ./tidemark run} exactly as a user starts it (the
 * launcher and its default heap) between a throwaway PostgreSQL and a target, measured from outside.
 * <ol>
 * <li>Backlog: with the pipeline stopped, {@code --backlog} changes are written in 1,000-row transactions
 * ({@link CaptureBacklog}); the pipeline is started again and timed until the target holds the backlog's end state.</li>
 * <li>Steady load: for each transaction size and rate, {@link LatencyLoad} commits new rows on a fixed schedule for
 * {@code --seconds} after {@code --warmup} and measures commit → visible per transaction and the lag's slope.</li>
 * </ol>
 * The {@code tidemark run} process's peak RSS ({@code VmHWM}) and CPU are read from {@code /proc}. Prints a Markdown
 * table with the goals and writes a PNG of the percentiles against the rate.
 */
public final class LatencyBenchmark {
    private static final String DATABASE = "postgres";
    private static final String TARGET_DB = "tidemark_latency_bench";
    private static final long RSS_GOAL = 512L * 1024 * 1024;

    private final Map<String, String> o;
    private final Path work;

    private LatencyBenchmark(Map<String, String> o, Path work) {
        this.o = o;
        this.work = work;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> d = BenchArgs.defaults("""
                rates 1000,5000,10000
                txn-rows 1,10
                seconds 300
                warmup 30
                backlog 500000
                partitions 3
                writers 4
                target sqlite
                target-pg jdbc:postgresql://127.0.0.1:5432/
                target-pg-user postgres
                plot
                """);
        Map<String, String> o = BenchArgs.options(args, d,
                "usage: bench/latency.sh [--rates 1000,5000,10000] [--txn-rows 1,10] [--seconds 300] [--warmup 15] [--backlog 500000]"
                        + " [--partitions 3] [--writers 4] [--target sqlite|postgres] [--target-pg URL] [--target-pg-user USER]"
                        + " [--plot FILE.png] [--workdir DIR]", "latency bench");
        Path work = o.containsKey("workdir") ? Files.createDirectories(Path.of(o.get("workdir")))
                : ServerFolders.newTemporary(Path.of("/tmp"), "tidemark-latency-bench-");
        System.exit(new LatencyBenchmark(o, work).run());
    }

    private int run() throws Exception {
        String heap = System.getenv().getOrDefault("TIDEMARK_HEAP", launcherDefaultHeap() + " (the launcher's default)");
        System.out.println("Tidemark latency benchmark: ./tidemark run, commit → visible");
        System.out.println("  machine: " + Runtime.getRuntime().availableProcessors() + " cores, Java " + System.getProperty("java.version")
                + "; tidemark run heap " + heap + (System.getenv("TIDEMARK_JAVA_OPTS") == null ? "" : ", TIDEMARK_JAVA_OPTS "
                + System.getenv("TIDEMARK_JAVA_OPTS")) + "; target " + o.get("target") + "; " + o.get("partitions") + " partitions; "
                + o.get("writers") + " writer connections");
        boolean pgTarget = o.get("target").equals("postgres");
        try (LocalPostgres pg = LocalPostgres.start(work.resolve("pg"), false);
             LocalKafka kafka = LocalKafka.start(work.resolve("kafka"))) {
            System.out.printf(Locale.ROOT, "  PostgreSQL %s (fsync off) on %d, Kafka %s%n", pg.version(), pg.port(), kafka.bootstrapServers());
            JdbcEndpoint source = JdbcEndpoint.of(pg.jdbcUrl(DATABASE), pg.user());
            CaptureBacklog backlog = CaptureBacklog.of("backlog", Math.max(10_000, Long.parseLong(o.get("backlog"))), 1000);
            try (Connection c = source.connect(); Statement s = c.createStatement()) {
                CaptureBacklog.createSchema(c, "bench_pub");
                s.execute("CREATE TABLE \"" + LatencyLoad.TABLE + "\" (\"id\" bigint PRIMARY KEY, \"txn\" bigint, \"note\" varchar(100))");
            }
            JdbcEndpoint target = pgTarget ? JdbcEndpoint.of(o.get("target-pg") + TARGET_DB, o.get("target-pg-user"))
                    : JdbcEndpoint.of("jdbc:sqlite:" + work.resolve("target.db"), null);
            if (pgTarget) {
                admin("DROP DATABASE IF EXISTS \"" + TARGET_DB + "\" WITH (FORCE)");
                admin("CREATE DATABASE \"" + TARGET_DB + "\"");
            }
            Path config = pipelineFile(pg, kafka, pgTarget ? target.url() + "?user=" + o.get("target-pg-user") : target.url());
            try {
                measure(config, source, target, backlog);
            } finally {
                if (pgTarget) {
                    admin("DROP DATABASE IF EXISTS \"" + TARGET_DB + "\" WITH (FORCE)");
                }
            }
        }
        return 0;
    }

    /** The pipeline's first start (up to a probe row), the backlog, the steady scenarios, then the table, goals and plot. */
    private void measure(Path config, JdbcEndpoint source, JdbcEndpoint target, CaptureBacklog backlog) throws Exception {
        Process first = startRun(config, "run-1.log");
        awaitProbe(source, target, -1, first);
        stop(first);
        Process run = restartAfterBacklog(config, source, target, backlog);
        awaitProbe(source, target, -2, run);
        List<LatencyLoad.Result> results = steady(source, target, run);
        long rss = peakRss(run);
        stop(run);
        System.out.println();
        System.out.print(table(results));
        System.out.println();
        goals(results, rss);
        Path png = o.get("plot").isBlank() ? work.resolve("latency.png") : Path.of(o.get("plot"));
        LatencyChart.write(results, String.format(Locale.ROOT, "tidemark run → %s: commit → visible latency (%s s per point, %s cores)",
                o.get("target"), o.get("seconds"), Runtime.getRuntime().availableProcessors()), png);
        System.out.println("  plot: " + png);
    }

    /** Writes the backlog (unless {@code --backlog 0}) with the pipeline stopped, starts it again and times it applying the backlog. */
    private Process restartAfterBacklog(Path config, JdbcEndpoint source, JdbcEndpoint target, CaptureBacklog backlog) throws Exception {
        boolean withBacklog = Long.parseLong(o.get("backlog")) > 0;
        if (withBacklog) {
            try (Connection c = source.connect()) {
                long t0 = System.nanoTime();
                backlog.load(c);
                System.out.printf(Locale.ROOT, "  backlog written while the pipeline was stopped: %,d changes (%,d INSERT, %,d UPDATE, %,d DELETE rows, 1,000-row transactions) in %.1f s%n",
                        backlog.changes(), backlog.inserts(), backlog.updates(), backlog.deletes(), (System.nanoTime() - t0) / 1e9);
            }
        }
        long started = System.nanoTime();
        Process run = startRun(config, "run-2.log");
        if (withBacklog) {
            awaitBacklog(target, backlog, run);
            double s = (System.nanoTime() - started) / 1e9;
            System.out.printf(Locale.ROOT, "  backlog applied: %,d changes in %.1f s from `tidemark run` starting (JVM start-up included) = %,.0f changes/s; "
                    + "CPU %.1f s; peak RSS so far %s%n", backlog.changes(), s, backlog.changes() / s, cpuSeconds(run),
                    SinkResultsTable.mib(Long.toString(peakRss(run))));
        }
        return run;
    }

    /** The default of {@code TIDEMARK_HEAP} as the launcher script states it ({@code -Xmx${TIDEMARK_HEAP:-…}}). */
    private static String launcherDefaultHeap() throws java.io.IOException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("TIDEMARK_HEAP:-([0-9]+[kmgKMG]?)").matcher(Files.readString(Path.of("tidemark")));
        return m.find() ? m.group(1) : "unknown";
    }

    private List<LatencyLoad.Result> steady(JdbcEndpoint source, JdbcEndpoint target, Process run) throws Exception {
        LatencyLoad load = new LatencyLoad(source, target, Integer.parseInt(o.get("writers")));
        List<LatencyLoad.Result> results = new ArrayList<>();
        long firstId = 1_000_000_000L;
        for (String size : o.get("txn-rows").split(",")) {
            for (String rate : o.get("rates").split(",")) {
                int txnRows = Integer.parseInt(size.trim());
                int r = Integer.parseInt(rate.trim());
                double cpu0 = cpuSeconds(run);
                long t0 = System.nanoTime();
                LatencyLoad.Result res = load.run(firstId, txnRows, r, Integer.parseInt(o.get("warmup")), Integer.parseInt(o.get("seconds")), 120);
                double cpuShare = (cpuSeconds(run) - cpu0) / ((System.nanoTime() - t0) / 1e9);
                if (!run.isAlive()) {
                    throw new IllegalStateException("tidemark run exited with " + run.exitValue() + " (see " + work.resolve("run-2.log") + ")");
                }
                System.out.printf(Locale.ROOT, "  %d-row txns at %,d changes/s (achieved %,.0f): p50 %s, p90 %s, p99 %s, p99.9 %s, max %s ms; lag slope %.2f changes/s per s,"
                                + " max lag %,d; tidemark run CPU %.0f %% of one core%n", txnRows, r, res.achievedRate(), ms(res.p50Micros()),
                        ms(res.p90Micros()), ms(res.p99Micros()), ms(res.p999Micros()), ms(res.maxMicros()), res.lagSlope(), res.maxLag(), cpuShare * 100);
                results.add(res);
                firstId += 1_000_000_000L;
            }
        }
        return results;
    }

    private Path pipelineFile(LocalPostgres pg, LocalKafka kafka, String targetUrl) throws java.io.IOException {
        Path file = work.resolve("pipeline.yaml");
        Files.writeString(file, String.join("\n",
                "name: latency",
                "source:",
                "  url: " + pg.jdbcUrl(DATABASE),
                "  user: " + pg.user(),
                "  tables: [public." + CaptureBacklog.TABLE + ", public." + LatencyLoad.TABLE + "]",
                "kafka:",
                "  bootstrapServers: " + kafka.bootstrapServers(),
                "  partitions: " + o.get("partitions"),
                "target:",
                "  url: " + targetUrl,
                "stateDir: state",
                ""), StandardCharsets.UTF_8);
        return file;
    }

    private Process startRun(Path config, String log) throws java.io.IOException {
        return new ProcessBuilder("./tidemark", "run", "--config", config.toString())
                .redirectErrorStream(true).redirectOutput(work.resolve(log).toFile()).start();
    }

    private void stop(Process p) throws InterruptedException {
        p.destroy(); // SIGTERM: a graceful stop
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("tidemark run did not stop within 60 s of SIGTERM");
        }
    }

    /** Inserts probe row {@code id} and waits until the target shows it (the pipeline is up and streaming). */
    private void awaitProbe(JdbcEndpoint source, JdbcEndpoint target, long id, Process run) throws Exception {
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO \"" + LatencyLoad.TABLE + "\" VALUES (" + id + ", 0, 'probe')");
        }
        awaitTarget(target, "SELECT count(*) FROM \"" + LatencyLoad.TABLE + "\" WHERE \"id\" = " + id, 1, run, Duration.ofMinutes(3));
    }

    private void awaitBacklog(JdbcEndpoint target, CaptureBacklog b, Process run) throws Exception {
        awaitTarget(target, "SELECT count(*) + 1000000000 * sum(CASE WHEN \"status\" = 'shipped' THEN 1 ELSE 0 END) FROM \""
                + CaptureBacklog.TABLE + "\"", (b.inserts() - b.deletes()) + 1_000_000_000L * b.updates(), run, Duration.ofMinutes(30));
    }

    private void awaitTarget(JdbcEndpoint target, String sql, long expected, Process run, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!run.isAlive()) {
                throw new IllegalStateException("tidemark run exited with " + run.exitValue() + " (see its log in " + work + ")");
            }
            try (Connection c = target.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                if (rs.next() && rs.getLong(1) == expected) {
                    return;
                }
            } catch (SQLException notYet) {
                // the sink creates the target table with its first event
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the target did not reach the expected state within " + timeout + ": " + sql);
            }
            Thread.sleep(50);
        }
    }

    private void admin(String sql) throws SQLException {
        try (Connection c = JdbcEndpoint.of(o.get("target-pg") + "postgres", o.get("target-pg-user")).connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private String table(List<LatencyLoad.Result> rs) {
        StringBuilder b = new StringBuilder("| txn rows | offered changes/s | achieved changes/s | txns measured | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms"
                + " | lag slope (changes/s per s) | max lag (changes) |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (LatencyLoad.Result r : rs) {
            b.append(String.format(Locale.ROOT, "| %d | %,d | %,.0f | %,d | %s | %s | %s | %s | %s | %.2f | %,d |%n", r.txnRows(), r.rate(), r.achievedRate(),
                    r.txns(), ms(r.p50Micros()), ms(r.p90Micros()), ms(r.p99Micros()), ms(r.p999Micros()), ms(r.maxMicros()), r.lagSlope(), r.maxLag()));
        }
        return b.toString();
    }

    private void goals(List<LatencyLoad.Result> rs, long rss) {
        for (LatencyLoad.Result r : rs) {
            String what = r.txnRows() + "-row txns at " + String.format(Locale.ROOT, "%,d", r.rate()) + "/s";
            if (r.rate() == 1000) {
                System.out.println("Goal, " + what + ": p99 < 50 ms: " + ms(r.p99Micros()) + " ms — " + met(r.p99Micros() < 50_000));
                System.out.println("Goal, " + what + ": p99.9 < 100 ms: " + ms(r.p999Micros()) + " ms — " + met(r.p999Micros() < 100_000));
            }
            if (r.rate() == 10_000) {
                boolean offered = r.achievedRate() >= 0.98 * r.rate();
                System.out.println("Goal, " + what + ": sustained, lag slope ≤ 0: " + String.format(Locale.ROOT, "%,.0f changes/s achieved, slope %.2f", r.achievedRate(),
                        r.lagSlope()) + " — " + met(offered && r.lagSlope() <= 0) + (offered ? "" : " (the writers did not reach the rate)"));
            }
        }
        System.out.println("Goal: tidemark run peak RSS ≤ 512 MiB at the launcher's defaults: " + SinkResultsTable.mib(Long.toString(rss)) + " — " + met(rss > 0 && rss <= RSS_GOAL));
    }

    private static String met(boolean ok) {
        return ok ? "met" : "NOT met";
    }

    /** Milliseconds as printed in the table and the plot: one decimal below 10 ms, whole milliseconds above. */
    static String ms(long micros) {
        return micros < 10_000 ? String.format(Locale.ROOT, "%.1f", micros / 1000.0) : String.format(Locale.ROOT, "%,d", micros / 1000);
    }

    private static double cpuSeconds(Process p) {
        return p.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(-1.0);
    }

    /** {@code VmHWM} of the process in bytes (the launcher execs the JVM, so this is the JVM), or -1. */
    private static long peakRss(Process p) {
        return MemoryPeaks.peakRssBytes(Long.toString(p.pid()));
    }
}
