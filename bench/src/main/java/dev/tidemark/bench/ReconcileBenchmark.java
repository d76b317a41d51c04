package dev.tidemark.bench;

import static dev.tidemark.bench.TableSizes.label;
import static dev.tidemark.bench.TableSizes.table;

import dev.tidemark.devenv.LocalPostgres;
import dev.tidemark.reconcile.CanonicalValues;
import dev.tidemark.reconcile.ReconcileRequest;
import dev.tidemark.reconcile.ReconcileResult;
import dev.tidemark.reconcile.Reconciler;
import dev.tidemark.jdbc.ValueKind;
import dev.tidemark.event.TableId;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.postgresql.PGConnection;

/**
 * Reconcile benchmark: a PostgreSQL source table (6 columns: bigint key, numeric(12,2), timestamptz(6), boolean,
 * two texts) against its SQLite copy as the sink writes it, at 1M and 10M rows, with no differences, then 1, then 1%
 * (a third each missing, surplus and changed). Side by side, on the same tables, two baselines: reading every row's
 * content ({@code COPY t TO STDOUT} on PostgreSQL, {@code SELECT} of every column on SQLite — the slower of the two
 * is the content read) and a data-diff-style whole-table {@code sum(md5(row))} on PostgreSQL; plus {@code count(*)},
 * which takes a fraction of that and proves nothing. Each figure is the best of {@value #REPEATS} rounds; a round runs
 * every measurement once, so background load on a shared machine hits them alike (reconcile after untimed warm-up
 * runs: three on the first size, one on the others). Peak heap
 * (sum of the heap pools' peaks) and peak RSS (VmHWM, reset before each run) are per run.
 *
 * <p>Starts a throwaway PostgreSQL (fsync off) unless {@code --pg jdbc:postgresql://host:port/} is given. Markdown on
 * stdout, progress on stderr.
 */
public final class ReconcileBenchmark {
    private static final int REPEATS = 3;
    private final PrintStream log = System.err;
    private final String serverUrl;
    private final String user;
    private final Path dir;
    private String original;
    private boolean warmedUp;

    private ReconcileBenchmark(String serverUrl, String user, Path dir) {
        this.serverUrl = serverUrl;
        this.user = user;
        this.dir = dir;
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("TIDEMARK_LOG_LEVEL", "WARN");
        TableSizes options = TableSizes.parse(args, "ReconcileBenchmark");
        Path dir = Files.createTempDirectory("tidemark-bench-reconcile-");
        try {
            options.onServer((serverUrl, user) -> new ReconcileBenchmark(serverUrl, user, dir).run(options.rows()));
        } finally {
            try (var files = Files.walk(dir)) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private Connection pg(String db) throws SQLException {
        return DriverManager.getConnection(serverUrl + db, user, "");
    }

    private String sqliteUrl(long n) {
        return "jdbc:sqlite:" + dir.resolve(table(n) + ".db");
    }

    /** One measured run: best wall time of the repeats, and the peaks of the best run. */
    private record Figure(double seconds, long heapBytes, long rssBytes, String note) {
    }

    @FunctionalInterface
    private interface Work {
        String run() throws Exception;
    }

    private void run(List<Long> sizes) throws Exception {
        String db = "reconcile_bench_" + ProcessHandle.current().pid();
        try (Connection admin = pg("postgres"); Statement s = admin.createStatement()) {
            s.execute("CREATE DATABASE " + db);
        }
        Map<Long, Map<String, Figure>> all = new LinkedHashMap<>();
        try (Connection src = pg(db)) {
            for (long n : sizes) {
                generate(src, n);
                copyToSqlite(src, n);
                all.put(n, measure(db, src, n));
            }
        } finally {
            try (Connection admin = pg("postgres"); Statement s = admin.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
            }
        }
        print(sizes, all);
    }

    private void generate(Connection src, long n) throws SQLException {
        long t0 = System.nanoTime();
        String t = table(n);
        try (Statement s = src.createStatement()) {
            TableSizes.generate(s, n, "id bigint PRIMARY KEY, amount numeric(12,2), happened timestamptz(6), flag boolean, label text, note text",
                    "g, ((g * 7919) % 1000000) / 100.0, "
                    + "timestamptz '2020-01-01 00:00:00+00' + g * interval '1 second' + (g % 1000) * interval '1 microsecond', "
                    + "g % 2 = 0, 'customer ' || (g % 5000), CASE WHEN g % 10 = 0 THEN NULL ELSE 'note ' || g END", log);
            s.execute("VACUUM ANALYZE public." + t);
        }
        log.printf("\rgenerated %s: %,d rows in %.1f s%n", t, n, (System.nanoTime() - t0) / 1e9);
    }

    /** Copies the table into SQLite in the sink writer's representation (decimal text, ISO UTC timestamps, 0/1). */
    private void copyToSqlite(Connection src, long n) throws SQLException {
        long t0 = System.nanoTime();
        String t = table(n);
        try (Connection tgt = DriverManager.getConnection(sqliteUrl(n))) {
            try (Statement s = tgt.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=OFF");
                s.execute("CREATE TABLE \"" + t + "\" (\"id\" INTEGER NOT NULL, \"amount\" DECIMAL_TEXT(12,2), \"happened\" TIMESTAMPTZ_TEXT, "
                        + "\"flag\" BOOLEAN_INTEGER, \"label\" TEXT, \"note\" TEXT, \"__tidemark_position\" TEXT, PRIMARY KEY (\"id\"))");
            }
            tgt.setAutoCommit(false);
            src.setAutoCommit(false);
            try (Statement read = src.createStatement();
                 PreparedStatement ins = tgt.prepareStatement("INSERT INTO \"" + t + "\" VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                read.setFetchSize(10_000);
                long rows = 0;
                try (ResultSet rs = read.executeQuery("SELECT id, amount::text, happened, flag, label, note FROM public." + t + " ORDER BY id")) {
                    while (rs.next()) {
                        long id = rs.getLong(1);
                        ins.setLong(1, id);
                        ins.setString(2, rs.getString(2));
                        ins.setString(3, CanonicalValues.ofText(rs.getString(3), ValueKind.TIMESTAMPTZ));
                        ins.setInt(4, rs.getBoolean(4) ? 1 : 0);
                        ins.setString(5, rs.getString(5));
                        ins.setString(6, rs.getString(6));
                        ins.setString(7, String.format(Locale.ROOT, "lsn:%016x", 0x1000000L + id));
                        ins.addBatch();
                        if (++rows % 10_000 == 0) {
                            ins.executeBatch();
                            if (rows % 1_000_000 == 0) {
                                log.printf("\rcopying %s to SQLite: %,d rows", t, rows);
                            }
                        }
                    }
                }
                ins.executeBatch();
            }
            src.commit();
            src.setAutoCommit(true);
            tgt.commit();
        }
        log.printf("\rcopied %s to SQLite in %.1f s%n", t, (System.nanoTime() - t0) / 1e9);
    }

    private Map<String, Figure> measure(String db, Connection src, long n) throws Exception {
        Map<String, Work> work = work(db, src, n);
        for (int i = warmedUp ? 1 : 3; i > 0; i--) {
            reconcile(db, n, 0); // warm-up: the JIT compiles the hot paths before anything is timed
        }
        warmedUp = true;
        // rounds: each measurement once per round, so that background load on a shared machine hits all alike
        Map<String, Figure> f = new LinkedHashMap<>();
        for (int round = 1; round <= REPEATS; round++) {
            log.printf("%s, round %d of %d (load average %s)%n", table(n), round, REPEATS, loadAverage());
            for (Map.Entry<String, Work> w : work.entrySet()) {
                Figure x = once(w.getKey(), w.getValue());
                f.merge(w.getKey(), x, (a, b) -> a.seconds() <= b.seconds() ? a : b);
            }
        }
        long planted = plant(n, n / 100);
        for (int round = 1; round <= REPEATS; round++) {
            Figure x = once("percent", () -> reconcile(db, n, planted));
            f.merge("percent", x, (a, b) -> a.seconds() <= b.seconds() ? a : b);
        }
        return f;
    }

    /** The measurements every round runs, by name: the baselines, then reconcile with no and with one difference. */
    private Map<String, Work> work(String db, Connection src, long n) {
        String t = table(n);
        Map<String, Work> work = new LinkedHashMap<>();
        work.put("count", () -> {
            try (Statement s = src.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM public." + t)) {
                rs.next();
                return rs.getLong(1) + " rows";
            }
        });
        work.put("copy", () -> {
            long rows = src.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY public." + t + " TO STDOUT", OutputStream.nullOutputStream());
            return rows + " rows";
        });
        work.put("sqlite", () -> {
            long rows = 0;
            try (Connection c = DriverManager.getConnection(sqliteUrl(n)); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT id, amount, happened, flag, label, note FROM \"" + t + "\"")) {
                while (rs.next()) {
                    rs.getLong(1);
                    for (int i = 2; i <= 6; i++) {
                        rs.getString(i);
                    }
                    rows++;
                }
            }
            return rows + " rows";
        });
        work.put("md5", () -> {
            try (Statement s = src.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*), sum(('x' || substr(md5(r::text), 18))::bit(60)::bigint) FROM public." + t + " r")) {
                rs.next();
                return rs.getString(2);
            }
        });
        work.put("none", () -> reconcile(db, n, 0));
        work.put("one", () -> {
            plant(n, 1);
            try {
                return reconcile(db, n, 1);
            } finally {
                plant(n, -1);
            }
        });
        return work;
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (Exception e) {
            return "?";
        }
    }

    private String reconcile(String db, long n, long expected) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        ReconcileResult r = Reconciler.reconcile(ReconcileRequest.of(ReconcileRequest.Endpoint.of(serverUrl + db, p),
                new TableId("public", table(n)), ReconcileRequest.Endpoint.of(sqliteUrl(n), new Properties()), table(n))
                .withSettle(Duration.ZERO).withKeyLimit(1_000_000));
        long found = r.missingCount() + r.surplusCount() + r.changedCount();
        if (found != expected) {
            throw new IllegalStateException("reconcile of " + table(n) + " found " + found + " differences, planted " + expected
                    + ": " + r.missingCount() + " missing, " + r.surplusCount() + " surplus, " + r.changedCount() + " changed");
        }
        return String.format(Locale.ROOT, "%d missing, %d surplus, %d changed; %d segments, %d compared row by row",
                r.missingCount(), r.surplusCount(), r.changedCount(), r.stats().segments(), r.stats().fetchedSegments());
    }

    /**
     * Plants differences in the SQLite copy: 1 → one changed row (-1 undoes it); more → a third each changed,
     * missing and surplus, spread evenly over the key range. Returns how many were planted.
     */
    private long plant(long n, long count) throws SQLException {
        String t = "\"" + table(n) + "\"";
        try (Connection c = DriverManager.getConnection(sqliteUrl(n)); Statement s = c.createStatement()) {
            if (count == 1 || count == -1) {
                try (PreparedStatement ps = c.prepareStatement("UPDATE " + t + " SET amount = ? WHERE id = ?")) {
                    if (count == 1) {
                        try (ResultSet rs = s.executeQuery("SELECT amount FROM " + t + " WHERE id = " + (n / 2))) {
                            rs.next();
                            original = rs.getString(1);
                        }
                    }
                    ps.setString(1, count == 1 ? "-1.00" : original);
                    ps.setLong(2, n / 2);
                    ps.executeUpdate();
                }
                return 1;
            }
            long each = count / 3;
            long step = n / each;
            s.executeUpdate("UPDATE " + t + " SET amount = '0.01' WHERE id % " + step + " = 1");
            s.executeUpdate("DELETE FROM " + t + " WHERE id % " + step + " = 2");
            s.executeUpdate("INSERT INTO " + t + " SELECT id + " + n + ", amount, happened, flag, label, note, __tidemark_position FROM " + t
                    + " WHERE id % " + step + " = 3");
            long planted = 0;
            for (int r = 1; r <= 3; r++) {
                planted += (n - r) / step + 1;
            }
            return planted;
        }
    }

    private Figure once(String what, Work work) throws Exception {
        System.gc();
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP).toList();
        heap.forEach(MemoryPoolMXBean::resetPeakUsage);
        resetPeakRss();
        long t0 = System.nanoTime();
        String note = work.run();
        double s = (System.nanoTime() - t0) / 1e9;
        long heapPeak = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        Figure f = new Figure(s, heapPeak, peakRss(), note);
        log.printf("  %-8s %.2f s, peak heap %d MiB, peak RSS %d MiB: %s%n", what, s, heapPeak >> 20, f.rssBytes() >> 20, note);
        return f;
    }

    private static void resetPeakRss() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        } catch (Exception e) {
            // not Linux, or not allowed: the peak then counts from process start
        }
    }

    private static long peakRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (Exception e) {
            // not Linux
        }
        return -1;
    }

    private static void print(List<Long> sizes, Map<Long, Map<String, Figure>> all) {
        PrintStream out = System.out;
        String[][] rows = {
                {"count", "`SELECT count(*)` on PostgreSQL (proves nothing)"},
                {"copy", "baseline: `COPY t TO STDOUT` on PostgreSQL (every row's content)"},
                {"sqlite", "baseline: `SELECT` every column on SQLite (every row's content)"},
                {"md5", "baseline: data-diff-style `sum(md5(row))` on PostgreSQL"},
                {"none", "reconcile, no differences"},
                {"one", "reconcile, 1 difference"},
                {"percent", "reconcile, 1% differences (⅓ missing, ⅓ surplus, ⅓ changed)"}};
        out.println("| run | " + String.join(" | ", sizes.stream().map(n -> label(n) + ": s | peak heap MiB | peak RSS MiB").toList()) + " |");
        out.println("|---|" + "---:|---:|---:|".repeat(sizes.size()));
        for (String[] r : rows) {
            StringBuilder b = new StringBuilder("| " + r[1] + " |");
            for (long n : sizes) {
                Figure f = all.get(n).get(r[0]);
                b.append(String.format(Locale.ROOT, " %.2f | %d | %d |", f.seconds(), f.heapBytes() >> 20, f.rssBytes() >> 20));
            }
            out.println(b);
        }
        out.println();
        out.println("| ratio | " + String.join(" | ", sizes.stream().map(TableSizes::label).toList()) + " |");
        out.println("|---|" + "---:|".repeat(sizes.size()));
        ratio(out, sizes, all, "no differences ÷ content read (slower side)", "none", null);
        ratio(out, sizes, all, "no differences ÷ `COPY` (PostgreSQL)", "none", "copy");
        ratio(out, sizes, all, "no differences ÷ `sum(md5)`", "none", "md5");
        ratio(out, sizes, all, "1 difference ÷ no differences", "one", "none");
        ratio(out, sizes, all, "1% differences ÷ no differences", "percent", "none");
    }

    private static void ratio(PrintStream out, List<Long> sizes, Map<Long, Map<String, Figure>> all, String what, String a, String b) {
        StringBuilder line = new StringBuilder("| " + what + " |");
        for (long n : sizes) {
            Map<String, Figure> f = all.get(n);
            double base = b != null ? f.get(b).seconds() : Math.max(f.get("copy").seconds(), f.get("sqlite").seconds());
            line.append(String.format(Locale.ROOT, " %.2f× |", f.get(a).seconds() / base));
        }
        out.println(line);
    }
}
