package dev.tidemark.bench;

import dev.tidemark.devenv.LocalPostgres;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The options of the benchmarks that measure one table per size ({@code --rows 1000000,10000000}, {@code --pg URL}),
 * the PostgreSQL server they run on (the given one as {@code postgres}, or a throwaway {@link LocalPostgres} cluster,
 * fsync off) and the names a size gives its table ({@code big_10m}) and its column heading ({@code 10M rows}).
 */
record TableSizes(List<Long> rows, String pg) {

    /** What runs on the server: {@code serverUrl} ends with {@code /}, a database name completes it. */
    @FunctionalInterface
    interface OnServer {
        void run(String serverUrl, String user) throws Exception;
    }

    /** The options; anything else throws with the usage of {@code name}. */
    static TableSizes parse(String[] args, String name) {
        List<Long> rows = List.of(1_000_000L, 10_000_000L);
        String pg = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> rows = Arrays.stream(args[++i].split(",")).map(Long::parseLong).toList();
                case "--pg" -> pg = args[++i];
                default -> throw new IllegalArgumentException("usage: " + name + " [--rows 1000000,10000000] [--pg jdbc:postgresql://host:port/]");
            }
        }
        return new TableSizes(rows, pg);
    }

    /** Runs {@code body} on {@code --pg} as {@code postgres}, or on a throwaway cluster stopped afterwards. */
    void onServer(OnServer body) throws Exception {
        if (pg != null) {
            body.run(pg.endsWith("/") ? pg : pg + "/", "postgres");
            return;
        }
        // the cluster folder itself, directly under /tmp: its owner becomes the postgres account when run as root
        Path dir = Files.createTempDirectory("tidemark-bench-pg-");
        try (LocalPostgres local = LocalPostgres.start(dir, false)) {
            System.err.printf("PostgreSQL %s (throwaway cluster, fsync off) on port %d%n", local.version(), local.port());
            body.run("jdbc:postgresql://127.0.0.1:" + local.port() + "/", local.user());
        }
    }

    /**
     * Creates {@code public.<table(n)>} with {@code columns} and fills it with rows 1..n of {@code values} (select
     * expressions over {@code g} from {@code generate_series}), a million rows per statement, progress on {@code log}.
     */
    static void generate(Statement s, long n, String columns, String values, PrintStream log) throws SQLException {
        String t = table(n);
        s.execute("CREATE TABLE public." + t + " (" + columns + ")");
        for (long from = 1; from <= n; from += 1_000_000) {
            long to = Math.min(n, from + 999_999);
            s.execute("INSERT INTO public." + t + " SELECT " + values + " FROM generate_series(" + from + "::bigint, " + to + "::bigint) g");
            log.printf("\rgenerating %s: %,d rows", t, to);
        }
    }

    static String table(long n) {
        return "big_" + (n % 1_000_000 == 0 ? n / 1_000_000 + "m" : Long.toString(n));
    }

    static String label(long n) {
        return n % 1_000_000 == 0 ? n / 1_000_000 + "M rows" : String.format(Locale.ROOT, "%,d rows", n);
    }
}
