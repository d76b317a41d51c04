package dev.tidemark.bench;

import static dev.tidemark.bench.TableSizes.label;
import static dev.tidemark.bench.TableSizes.table;

import dev.tidemark.connector.config.Secret;
import dev.tidemark.devenv.LocalPostgres;
import dev.tidemark.connector.watermark.Cursor;
import dev.tidemark.connector.watermark.RunResult;
import dev.tidemark.connector.watermark.WatermarkConfig;
import dev.tidemark.connector.watermark.WatermarkJob;
import dev.tidemark.connector.watermark.WatermarkPoller;
import dev.tidemark.connector.watermark.WatermarkTable;
import dev.tidemark.event.TableId;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Watermark-mode benchmark on PostgreSQL (a throwaway cluster from {@link LocalPostgres}, or {@code --pg URL} of a
 * server whose user may create and drop databases):
 * <ul>
 *   <li>a run with no changes costs O(changed rows), not O(table): median no-change run on 1M vs 10M rows with an
 *       index on the cursor (and, for contrast, on 10M without the index);</li>
 *   <li>a run after 1,000 changed rows, on each size;</li>
 *   <li>initial-load rows/s on each size (chunked, resumable, upserted with positions, watermark committed with
 *       each chunk; this load also leaves the state the incremental runs start from) vs a plain client-side copy
 *       ({@code SELECT *} streamed, batched {@code INSERT}, 10,000 rows per commit) and the in-database
 *       {@code INSERT … SELECT}.</li>
 * </ul>
 * Prints a Markdown table of figures on stdout; progress on stderr.
 */
public final class WatermarkBenchmark {
    private static final int CHUNK = 10_000;
    private static final int NO_CHANGE_RUNS = 31;
    /** The source tables' columns, and those of their copies. */
    private static final String COLUMNS = "id bigint PRIMARY KEY, modified timestamptz(6) NOT NULL, customer_id int NOT NULL, "
            + "amount numeric(12,2) NOT NULL, note text";
    private final PrintStream log = System.err;
    private final String serverUrl;
    private final String user;

    private WatermarkBenchmark(String serverUrl, String user) {
        this.serverUrl = serverUrl;
        this.user = user;
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("TIDEMARK_LOG_LEVEL", "WARN");
        TableSizes options = TableSizes.parse(args, "WatermarkBenchmark");
        options.onServer((serverUrl, user) -> new WatermarkBenchmark(serverUrl, user).run(options.rows()));
    }

    private Connection connect(String db) throws SQLException {
        return DriverManager.getConnection(serverUrl + db, user, "");
    }

    private void run(List<Long> sizes) throws Exception {
        String suffix = "_" + ProcessHandle.current().pid();
        String srcDb = "wm_bench_src" + suffix;
        String tgtDb = "wm_bench_tgt" + suffix;
        try (Connection admin = connect("postgres"); Statement s = admin.createStatement()) {
            s.execute("CREATE DATABASE " + srcDb);
            s.execute("CREATE DATABASE " + tgtDb);
        }
        try (Connection src = connect(srcDb)) {
            for (long n : sizes) {
                generate(src, n);
            }
            print(sizes, measure(src, srcDb, tgtDb, sizes));
        } finally {
            try (Connection admin = connect("postgres"); Statement s = admin.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + srcDb + " WITH (FORCE)");
                s.execute("DROP DATABASE IF EXISTS " + tgtDb + " WITH (FORCE)");
            }
        }
    }

    /** What the table shows, per size: the three initial loads (rows/s), the no-change and changed runs (ms). */
    private record Figures(Map<Long, Double> wm, Map<Long, Double> client, Map<Long, Double> inDb, Map<Long, Double> noChange,
                           Map<Long, Double> changed, double withoutIndex) {
    }

    /** Every measurement, in the order that leaves each the state the next one starts from. */
    private Figures measure(Connection src, String srcDb, String tgtDb, List<Long> sizes) throws Exception {
        // initial loads: the watermark path (which also leaves the state the incremental runs start from) vs plain copies
        Map<Long, Double> wm = new LinkedHashMap<>();
        Map<Long, Double> client = new LinkedHashMap<>();
        Map<Long, Double> inDb = new LinkedHashMap<>();
        for (long n : sizes) {
            wm.put(n, initialLoad(srcDb, tgtDb, n));
            client.put(n, clientCopy(src, tgtDb, n));
            inDb.put(n, inDatabaseCopy(src, n));
        }
        Map<Long, Double> noChange = noChangeMedians(srcDb, tgtDb, sizes, NO_CHANGE_RUNS);
        Map<Long, Double> changed = new LinkedHashMap<>();
        for (long n : sizes) {
            double[] ms = new double[3];
            for (int round = 0; round < ms.length; round++) {
                ms[round] = changedRun(src, srcDb, tgtDb, n, 1000, round);
            }
            Arrays.sort(ms);
            changed.put(n, ms[1]);
        }
        double withoutIndex = -1;
        long last = sizes.get(sizes.size() - 1);
        if (sizes.size() > 1) {
            try (Statement s = src.createStatement()) {
                s.execute("DROP INDEX " + table(last) + "_modified");
            }
            withoutIndex = noChangeMedians(srcDb, tgtDb, List.of(last), 3).get(last);
        }
        return new Figures(wm, client, inDb, noChange, changed, withoutIndex);
    }

    private static void print(List<Long> sizes, Figures f) {
        long first = sizes.get(0);
        long last = sizes.get(sizes.size() - 1);
        PrintStream out = System.out;
        out.println("| measurement | " + String.join(" | ", sizes.stream().map(TableSizes::label).toList())
                + " | " + label(last) + " / " + label(first) + " |");
        out.println("|---|" + "---:|".repeat(sizes.size()) + "---:|");
        out.println(row("no-change run, index on the cursor: median of " + NO_CHANGE_RUNS + " runs (ms)", sizes, f.noChange(), "%.1f"));
        out.println(row("run after 1,000 changed rows: median of 3 runs (ms)", sizes, f.changed(), "%.1f"));
        if (f.withoutIndex() >= 0) {
            out.printf(Locale.ROOT, "| no-change run *without* the cursor index: median of 3 runs (ms) | %s%.1f | %.0f× the indexed run |%n",
                    "– | ".repeat(sizes.size() - 1), f.withoutIndex(), f.withoutIndex() / f.noChange().get(last));
        }
        out.println(row("initial load, watermark: chunks of " + String.format(Locale.ROOT, "%,d", CHUNK)
                + " paged by key, upsert + position guard, control row per chunk (rows/s)", sizes, f.wm(), "%,.0f"));
        out.println(row("initial load, client copy: SELECT * streamed, batched plain INSERT, commit per "
                + String.format(Locale.ROOT, "%,d", CHUNK) + " (rows/s)", sizes, f.client(), "%,.0f"));
        out.println(row("initial load, in-database INSERT INTO … SELECT * on the source server (rows/s)", sizes, f.inDb(), "%,.0f"));
        Map<Long, Double> share = new LinkedHashMap<>();
        sizes.forEach(n -> share.put(n, f.wm().get(n) / f.client().get(n)));
        out.println(row("watermark initial load ÷ client copy", sizes, share, "%.2f"));
    }

    private static String row(String what, List<Long> sizes, Map<Long, Double> values, String fmt) {
        StringBuilder b = new StringBuilder("| " + what + " | ");
        for (long n : sizes) {
            b.append(String.format(Locale.ROOT, fmt, values.get(n))).append(" | ");
        }
        double ratio = values.get(sizes.get(sizes.size() - 1)) / values.get(sizes.get(0));
        return b.append(String.format(Locale.ROOT, "%.2f× |", ratio)).toString();
    }

    private void generate(Connection src, long n) throws SQLException {
        long t0 = System.nanoTime();
        String t = table(n);
        try (Statement s = src.createStatement()) {
            TableSizes.generate(s, n, COLUMNS, "g, timestamptz '2020-01-01 00:00:00+00' + g * interval '1 second', "
                    + "(g % 5000)::int, ((g * 7919) % 1000000) / 100.0, 'note ' || g", log);
            s.execute("CREATE INDEX " + t + "_modified ON public." + t + " (modified)");
            s.execute("VACUUM ANALYZE public." + t);
        }
        log.printf("\rgenerated %s: %,d rows with an index on modified in %.1f s%n", t, n, (System.nanoTime() - t0) / 1e9);
    }

    private WatermarkJob job(String srcDb, String tgtDb, WatermarkTable t, boolean progress) throws SQLException {
        return WatermarkJob.open(new WatermarkConfig("bench", new WatermarkConfig.Endpoint(serverUrl + srcDb, user, Secret.empty()),
                new WatermarkConfig.Endpoint(serverUrl + tgtDb, user, Secret.empty()), null, null, List.of(t), null), progress ? log : null);
    }

    private static WatermarkTable settings(long n) {
        return WatermarkTable.of(new TableId("public", table(n)), List.of("id"), new Cursor.Timestamp("modified")).withChunkSize(CHUNK);
    }

    private double initialLoad(String srcDb, String tgtDb, long n) throws Exception {
        WatermarkTable t = settings(n);
        try (WatermarkJob job = job(srcDb, tgtDb, t, true)) {
            long t0 = System.nanoTime();
            RunResult r = job.run(t, WatermarkPoller.Request.incremental());
            double s = (System.nanoTime() - t0) / 1e9;
            if (r.rows() != n) {
                throw new IllegalStateException("initial load copied " + r.rows() + " of " + n + " rows");
            }
            log.printf("watermark initial load of %,d rows: %.1f s, %,.0f rows/s%n", n, s, n / s);
            return n / s;
        }
    }

    private double clientCopy(Connection src, String tgtDb, long n) throws SQLException {
        String t = table(n);
        try (Connection tgt = connect(tgtDb)) {
            try (Statement s = tgt.createStatement()) {
                s.execute("CREATE TABLE copy_" + t + " (" + COLUMNS + ")");
            }
            tgt.setAutoCommit(false);
            src.setAutoCommit(false);
            long t0 = System.nanoTime();
            long rows = 0;
            try (Statement read = src.createStatement();
                 PreparedStatement ins = tgt.prepareStatement("INSERT INTO copy_" + t + " VALUES (?, ?, ?, ?, ?)")) {
                read.setFetchSize(CHUNK);
                try (ResultSet rs = read.executeQuery("SELECT id, modified, customer_id, amount, note FROM public." + t)) {
                    while (rs.next()) {
                        ins.setLong(1, rs.getLong(1));
                        ins.setObject(2, rs.getObject(2, OffsetDateTime.class));
                        ins.setInt(3, rs.getInt(3));
                        ins.setBigDecimal(4, rs.getBigDecimal(4));
                        ins.setString(5, rs.getString(5));
                        ins.addBatch();
                        if (++rows % CHUNK == 0) {
                            ins.executeBatch();
                            tgt.commit();
                        }
                    }
                }
                ins.executeBatch();
                tgt.commit();
            }
            src.commit();
            src.setAutoCommit(true);
            double s = (System.nanoTime() - t0) / 1e9;
            log.printf("client copy of %,d rows: %.1f s, %,.0f rows/s%n", rows, s, rows / s);
            return rows / s;
        }
    }

    private double inDatabaseCopy(Connection src, long n) throws SQLException {
        String t = table(n);
        try (Statement s = src.createStatement()) {
            s.execute("CREATE TABLE copy_" + t + " (" + COLUMNS + ")");
            long t0 = System.nanoTime();
            s.execute("INSERT INTO copy_" + t + " SELECT * FROM public." + t);
            double secs = (System.nanoTime() - t0) / 1e9;
            log.printf("in-database INSERT … SELECT of %,d rows: %.1f s, %,.0f rows/s%n", n, secs, n / secs);
            return n / secs;
        }
    }

    /** Median no-change run per size; runs alternate between sizes so background load hits every size alike. */
    private Map<Long, Double> noChangeMedians(String srcDb, String tgtDb, List<Long> sizes, int runs) throws Exception {
        Map<Long, WatermarkJob> jobs = new LinkedHashMap<>();
        Map<Long, double[]> ms = new LinkedHashMap<>();
        try {
            for (long n : sizes) {
                jobs.put(n, job(srcDb, tgtDb, settings(n), false));
                ms.put(n, new double[runs]);
                for (int i = 0; i < 3; i++) {
                    jobs.get(n).run(settings(n), WatermarkPoller.Request.incremental());
                }
            }
            for (int i = 0; i < runs; i++) {
                for (long n : sizes) {
                    long t0 = System.nanoTime();
                    RunResult r = jobs.get(n).run(settings(n), WatermarkPoller.Request.incremental());
                    ms.get(n)[i] = (System.nanoTime() - t0) / 1e6;
                    if (r.rows() != 0) {
                        throw new IllegalStateException("a no-change run copied " + r.rows() + " rows");
                    }
                }
            }
        } finally {
            jobs.values().forEach(WatermarkJob::close);
        }
        Map<Long, Double> medians = new LinkedHashMap<>();
        for (long n : sizes) {
            double[] m = ms.get(n);
            Arrays.sort(m);
            medians.put(n, m[runs / 2]);
            log.printf("%s: no-change run median %.1f ms (min %.1f, max %.1f)%n", table(n), m[runs / 2], m[0], m[runs - 1]);
        }
        return medians;
    }

    private double changedRun(Connection src, String srcDb, String tgtDb, long n, int changes, int round) throws Exception {
        try (Statement s = src.createStatement()) {
            s.execute("UPDATE public." + table(n) + " SET amount = amount + 1, modified = now() - interval '1 minute' "
                    + "WHERE id IN (SELECT g * " + (n / changes) + " - " + round + " FROM generate_series(1, " + changes + ") g)");
        }
        WatermarkTable t = settings(n);
        try (WatermarkJob job = job(srcDb, tgtDb, t, false)) {
            long t0 = System.nanoTime();
            RunResult r = job.run(t, WatermarkPoller.Request.incremental());
            double ms = (System.nanoTime() - t0) / 1e6;
            if (r.rows() != changes) {
                throw new IllegalStateException("run after " + changes + " changes copied " + r.rows() + " rows");
            }
            log.printf("%s: run after %,d changes: %.1f ms%n", table(n), changes, ms);
            return ms;
        }
    }
}
